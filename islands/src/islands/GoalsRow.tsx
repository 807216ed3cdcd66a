// The home page's row of sustainability goals (spec section 2: horizontally draggable).
// Touch scrolls natively; a mouse drags it with pointer events; Left/Right step one card and
// Home/End go to the ends; CSS scroll snap (pages.css .goals__row) aligns the cards, and is
// paused while dragging so the row follows the pointer. Same markup as the server's row.
// Props: home.rs `goals_props`.

import { useRef, useState, type KeyboardEvent, type MouseEvent, type PointerEvent } from 'react';
import { DRAG_THRESHOLD, dragScrollLeft, settleTarget, snapPositions, stepTarget } from '../lib/goals';

export interface GoalsRowProps {
  goals: Array<{ id: string; title: string; description: string; icon: string }>;
}

interface Drag {
  pointerId: number;
  startX: number;
  startScroll: number;
  lastX: number;
  moved: boolean;
}

function prefersReducedMotion(): boolean {
  return globalThis.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
}

/** Snap positions of the row's cards, read from the layout. */
function positionsOf(row: HTMLElement): number[] {
  const rowLeft = row.getBoundingClientRect().left;
  const padding = parseFloat(getComputedStyle(row).scrollPaddingLeft) || 0;
  const offsets = Array.from(row.children, (card) => card.getBoundingClientRect().left - rowLeft + row.scrollLeft);
  return snapPositions(offsets, padding, row.scrollWidth - row.clientWidth);
}

export default function GoalsRow({ goals }: GoalsRowProps) {
  const row = useRef<HTMLUListElement>(null);
  const drag = useRef<Drag | null>(null);
  const suppressClick = useRef(false);
  const [dragging, setDragging] = useState(false);

  const scrollTo = (left: number) =>
    row.current?.scrollTo({ left, behavior: prefersReducedMotion() ? 'auto' : 'smooth' });

  const onPointerDown = (e: PointerEvent<HTMLUListElement>) => {
    // Touch and pens scroll the row natively.
    if (e.pointerType !== 'mouse' || e.button !== 0 || !row.current) return;
    drag.current = { pointerId: e.pointerId, startX: e.clientX, startScroll: row.current.scrollLeft, lastX: e.clientX, moved: false };
  };

  const onPointerMove = (e: PointerEvent<HTMLUListElement>) => {
    const d = drag.current;
    const el = row.current;
    if (!d || !el || e.pointerId !== d.pointerId) return;
    if (!d.moved) {
      if (Math.abs(e.clientX - d.startX) < DRAG_THRESHOLD) return;
      d.moved = true;
      el.setPointerCapture(e.pointerId);
      setDragging(true);
    }
    d.lastX = e.clientX;
    el.scrollLeft = dragScrollLeft(d.startScroll, d.startX, e.clientX, el.scrollWidth - el.clientWidth);
  };

  const endDrag = (e: PointerEvent<HTMLUListElement>) => {
    const d = drag.current;
    const el = row.current;
    if (!d || e.pointerId !== d.pointerId) return;
    drag.current = null;
    if (!d.moved || !el) return;
    suppressClick.current = true;
    if (el.hasPointerCapture(e.pointerId)) el.releasePointerCapture(e.pointerId);
    const target = settleTarget(positionsOf(el), el.scrollLeft, Math.sign(d.startX - d.lastX));
    setDragging(false);
    // After React has put scroll snap back, glide to the card the drag ended on.
    requestAnimationFrame(() => scrollTo(target));
  };

  const onKeyDown = (e: KeyboardEvent<HTMLUListElement>) => {
    const el = row.current;
    if (!el) return;
    const positions = positionsOf(el);
    let target: number;
    if (e.key === 'ArrowRight') target = stepTarget(positions, el.scrollLeft, 1);
    else if (e.key === 'ArrowLeft') target = stepTarget(positions, el.scrollLeft, -1);
    else if (e.key === 'Home') target = positions[0] ?? 0;
    else if (e.key === 'End') target = positions[positions.length - 1] ?? el.scrollWidth;
    else return;
    e.preventDefault();
    scrollTo(target);
  };

  // A drag that ends over a card must not count as a click on it.
  const onClickCapture = (e: MouseEvent) => {
    if (!suppressClick.current) return;
    suppressClick.current = false;
    e.preventDefault();
    e.stopPropagation();
  };

  return (
    <ul
      ref={row}
      className={`goals__row${dragging ? ' is-dragging' : ''}`}
      tabIndex={0}
      aria-label="Sustainability goals, scroll sideways"
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={endDrag}
      onPointerCancel={endDrag}
      onKeyDown={onKeyDown}
      onClickCapture={onClickCapture}
      onDragStart={(e) => e.preventDefault()}
    >
      {goals.map((goal) => (
        <li className="goal-card" key={goal.id}>
          <img src={goal.icon} alt="" width="64" height="64" loading="lazy" draggable={false} />
          <h3 className="card__title">{goal.title}</h3>
          <p>{goal.description}</p>
        </li>
      ))}
    </ul>
  );
}
