// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { bioParagraphs, groupsFromMarkup, orderGroups } from './tabs';

// The shape of templates/partials/speakers.html as the server renders it (escaped text).
const MARKUP = `<div class="speakers__groups">
  <section class="speakers__group" id="speakers-guest" data-category="guest" aria-labelledby="speakers-guest-title">
    <h3 id="speakers-guest-title" class="speakers__category">Guest of Honor</h3>
    <ul class="card-grid">
      <li class="person-card">
        <img class="person-card__photo" src="/static/img/a.webp" alt="" width="160" height="160" loading="lazy">
        <h4 class="person-card__name">Dr. Ana &amp; Co</h4>
        <p class="person-card__role">Dean, Harbour &lt;Institute&gt;</p>
        <details class="person-card__more"><summary>More info</summary><p>First paragraph.

Second one.</p></details>
      </li>
      <li class="person-card">
        <img class="person-card__photo" src="/static/img/b.webp" alt="" width="160" height="160" loading="lazy">
        <h4 class="person-card__name">Ben</h4>
        <p class="person-card__role">Chair</p>
        <details class="person-card__more"><summary>More info</summary><p>Short.</p></details>
      </li>
    </ul>
  </section>
  <section class="speakers__group" id="speakers-keynote" data-category="keynote" aria-labelledby="speakers-keynote-title">
    <h3 id="speakers-keynote-title" class="speakers__category">Keynote Speaker</h3>
    <ul class="card-grid"><li class="person-card"><img src="/static/img/c.webp" alt=""><h4 class="person-card__name">Cy</h4>
    <p class="person-card__role">Professor</p><details class="person-card__more"><summary>More info</summary><p>Bio.</p></details></li></ul>
  </section>
</div>`;

describe('groupsFromMarkup', () => {
  it("reads every group and speaker of the server's markup, in its order, text unescaped", () => {
    const root = document.createElement('div');
    root.innerHTML = MARKUP;
    const groups = groupsFromMarkup(root);
    expect(groups.map((g) => [g.category, g.label, g.speakers.length])).toEqual([
      ['guest', 'Guest of Honor', 2],
      ['keynote', 'Keynote Speaker', 1],
    ]);
    expect(groups[0].speakers[0]).toEqual({
      id: 'guest-0',
      order: 0,
      name: 'Dr. Ana & Co',
      role: 'Dean, Harbour <Institute>',
      image: '/static/img/a.webp',
      bio: 'First paragraph.\n\nSecond one.',
    });
    expect(bioParagraphs(groups[0].speakers[0].bio)).toEqual(['First paragraph.', 'Second one.']);
    // The markup's order is kept (the server already sorts by order, then name).
    expect(orderGroups(groups)[0].speakers.map((s) => s.name)).toEqual(['Dr. Ana & Co', 'Ben']);
  });

  it('finds nothing where there is no markup', () => {
    expect(groupsFromMarkup(null)).toEqual([]);
  });
});
