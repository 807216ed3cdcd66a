import { describe, expect, it } from 'vitest';
import { positionLabel, stepIndex, viewerKeyStep } from './gallery';

describe('gallery viewer', () => {
  it('steps forwards and backwards, wrapping at both ends', () => {
    expect(stepIndex(0, 1, 10)).toBe(1);
    expect(stepIndex(9, 1, 10)).toBe(0);
    expect(stepIndex(0, -1, 10)).toBe(9);
    expect(stepIndex(3, -13, 10)).toBe(0);
    expect(stepIndex(0, 1, 0)).toBe(0);
  });

  it('maps the arrow keys', () => {
    expect(viewerKeyStep('ArrowLeft')).toBe(-1);
    expect(viewerKeyStep('ArrowRight')).toBe(1);
    expect(viewerKeyStep('ArrowUp')).toBeNull();
  });

  it('labels the position for people', () => {
    expect(positionLabel(2, 10)).toBe('3 of 10');
  });
});
