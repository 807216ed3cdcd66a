import { describe, expect, it } from 'vitest';
import { headerKeyTarget, sectionFromHash, toggleOpen } from './accordion';

describe('accordion (spec section 4)', () => {
  it('opens one section at a time', () => {
    expect(toggleOpen(null, 'a')).toBe('a');
    expect(toggleOpen('a', 'b')).toBe('b');
  });

  it('closes the open section when it is clicked again', () => {
    expect(toggleOpen('a', 'a')).toBeNull();
  });

  it('moves between headers with Up/Down (wrapping), Home and End', () => {
    expect(headerKeyTarget(0, 'ArrowDown', 4)).toBe(1);
    expect(headerKeyTarget(3, 'ArrowDown', 4)).toBe(0);
    expect(headerKeyTarget(0, 'ArrowUp', 4)).toBe(3);
    expect(headerKeyTarget(2, 'Home', 4)).toBe(0);
    expect(headerKeyTarget(0, 'End', 4)).toBe(3);
    expect(headerKeyTarget(0, 'ArrowRight', 4)).toBeNull();
  });

  it('opens the section a URL fragment names', () => {
    const ids = ['pol-terms-1', 'pol-terms-2'];
    expect(sectionFromHash('#pol-terms-2', ids)).toBe('pol-terms-2');
    expect(sectionFromHash('', ids)).toBeNull();
    expect(sectionFromHash('#nope', ids)).toBeNull();
    expect(sectionFromHash('#%E0%A4%A', ids)).toBeNull(); // malformed escape
  });
});
