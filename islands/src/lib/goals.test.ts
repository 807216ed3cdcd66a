import { describe, expect, it } from 'vitest';
import { dragScrollLeft, nearestIndex, settleTarget, snapPositions, stepTarget } from './goals';

// Five 300 px cards with 20 px gaps after 32 px of padding; the row shows 700 px.
const offsets = [32, 352, 672, 992, 1312];
const padding = 32;
const max = 1312 + 300 + 32 - 700; // 944
const positions = snapPositions(offsets, padding, max);

describe('goals row snap positions', () => {
  it('aligns each card with the scroll padding, clamped to the scroll range', () => {
    expect(positions).toEqual([0, 320, 640, 944]);
  });

  it('handles a row that does not overflow', () => {
    expect(snapPositions([0, 100], 0, 0)).toEqual([0]);
    expect(snapPositions([0, 100], 0, -5)).toEqual([0]);
  });

  it('finds the nearest position', () => {
    expect(nearestIndex(positions, 150)).toBe(0);
    expect(nearestIndex(positions, 170)).toBe(1);
    expect(nearestIndex([], 10)).toBe(-1);
  });
});

describe('dragging', () => {
  it('moves the content with the pointer, within the row', () => {
    expect(dragScrollLeft(100, 500, 400, max)).toBe(200); // pointer left: content scrolls right
    expect(dragScrollLeft(100, 500, 900, max)).toBe(0);
    expect(dragScrollLeft(900, 500, 0, max)).toBe(max);
  });

  it('settles on the nearest card, or the next one in the drag direction past a threshold', () => {
    expect(settleTarget(positions, 330, 0)).toBe(320);
    expect(settleTarget(positions, 330, 1)).toBe(320); // 10 px past: a wobble, stay
    expect(settleTarget(positions, 360, 1)).toBe(640); // 40 px past going right: advance
    expect(settleTarget(positions, 290, -1)).toBe(0); // 30 px back going left: go back
    expect(settleTarget(positions, 944, 1)).toBe(944); // already at the end
    expect(settleTarget([], 77, 1)).toBe(77);
  });
});

describe('keyboard steps', () => {
  it('steps one card and stops at the ends', () => {
    expect(stepTarget(positions, 0, 1)).toBe(320);
    expect(stepTarget(positions, 320, 1)).toBe(640);
    expect(stepTarget(positions, 944, 1)).toBe(944);
    expect(stepTarget(positions, 640, -1)).toBe(320);
    expect(stepTarget(positions, 0, -1)).toBe(0);
    expect(stepTarget(positions, 500, -1)).toBe(320); // between cards: back to the previous
  });
});
