// The footer's Legal list (spec section 4: "Footer policy panel can show a selected policy's
// content"). Each policy opens a panel with its summary (from props, so every page stays light)
// and its sections, read from the policy's own page when first opened, plus a link to that
// page. Props: Layout::policy_panel_props. Without JavaScript the list is plain links.

import { useRef, useState } from 'react';
import { Modal } from '../lib/dialog';
import { loadPolicySections, type PolicySectionText, type PolicySummary } from '../lib/policy';

export interface PolicyPanelProps {
  policies: PolicySummary[];
}

type Loaded = { state: 'loading' } | { state: 'ready'; sections: PolicySectionText[] } | { state: 'failed' };

export default function PolicyPanel({ policies }: PolicyPanelProps) {
  const [selected, setSelected] = useState<PolicySummary | null>(null);
  const [loaded, setLoaded] = useState<Record<string, Loaded>>({});
  const opener = useRef<HTMLButtonElement | null>(null);

  const open = (policy: PolicySummary, button: HTMLButtonElement) => {
    opener.current = button;
    setSelected(policy);
    const known = loaded[policy.slug];
    if (known && known.state !== 'failed') return;
    setLoaded((m) => ({ ...m, [policy.slug]: { state: 'loading' } }));
    loadPolicySections(policy.link).then(
      (sections) => setLoaded((m) => ({ ...m, [policy.slug]: { state: 'ready', sections } })),
      // The summary and the link to the full page are still there.
      () => setLoaded((m) => ({ ...m, [policy.slug]: { state: 'failed' } })),
    );
  };
  const close = () => setSelected(null);
  const content = selected ? loaded[selected.slug] : undefined;

  return (
    <>
      <ul>
        {policies.map((policy) => (
          <li key={policy.slug}>
            <button type="button" className="footer-policy-button" aria-haspopup="dialog" onClick={(e) => open(policy, e.currentTarget)}>
              {policy.name}
            </button>
          </li>
        ))}
      </ul>
      <Modal open={selected !== null} onClose={close} labelledBy="policy-panel-title" describedBy="policy-panel-summary" className="policy-panel" returnFocus={opener}>
        {selected && (
          <>
            <div className="policy-panel__bar">
              <h2 className="policy-panel__title" id="policy-panel-title">
                {selected.name}
              </h2>
              <button type="button" className="viewer__close policy-panel__close" onClick={close}>
                <span aria-hidden="true">×</span> Close
              </button>
            </div>
            <div className="policy-panel__body" tabIndex={0} role="region" aria-labelledby="policy-panel-title">
              <p className="policy-panel__summary" id="policy-panel-summary">
                {selected.summary}
              </p>
              {content?.state === 'loading' && (
                <p className="policy-panel__status" role="status">
                  Loading...
                </p>
              )}
              {content?.state === 'failed' && (
                <p className="policy-panel__status" role="status">
                  The full text could not be loaded here; open the page below to read it.
                </p>
              )}
              {content?.state === 'ready' &&
                content.sections.map((section) => (
                  <section key={section.id} className="policy-panel__section" aria-labelledby={`policy-panel-${section.id}`}>
                    <h3 id={`policy-panel-${section.id}`}>{section.heading}</h3>
                    {section.paragraphs.map((p, i) => (
                      <p key={i}>{p}</p>
                    ))}
                  </section>
                ))}
            </div>
            <div className="policy-panel__footer">
              <a className="button button--primary" href={selected.link}>
                Open the {selected.name} page
              </a>
            </div>
          </>
        )}
      </Modal>
    </>
  );
}
