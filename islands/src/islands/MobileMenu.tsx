// The header's mobile menu (spec section 2: toggles open and closed), on top of the server's
// <details> menu: a button with aria-expanded, closed by a link click, Esc (focus back on the
// toggle), a click outside or focus leaving it. Props: Layout::mobile_menu_props.

import { useEffect, useRef, useState, type FocusEvent, type MouseEvent } from 'react';

export interface MobileMenuProps {
  links: Array<{ label: string; href: string; current: boolean }>;
}

export default function MobileMenu({ links }: MobileMenuProps) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented) return;
      e.preventDefault();
      setOpen(false);
      toggle.current?.focus();
    };
    const onPointerDown = (e: PointerEvent) => {
      if (e.target instanceof Node && !root.current?.contains(e.target)) setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointerDown, true);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointerDown, true);
    };
  }, [open]);

  const onPanelClick = (e: MouseEvent<HTMLElement>) => {
    if (e.target instanceof Element && e.target.closest('a')) setOpen(false);
  };
  const onBlur = (e: FocusEvent<HTMLDivElement>) => {
    // Tabbing out of the menu closes it; a click outside is handled by pointerdown.
    if (e.relatedTarget instanceof Node && !e.currentTarget.contains(e.relatedTarget)) setOpen(false);
  };

  return (
    <div className={`mobile-menu${open ? ' is-open' : ''}`} ref={root} onBlur={onBlur}>
      <button
        ref={toggle}
        type="button"
        className="mobile-menu__toggle"
        aria-expanded={open}
        aria-controls="mobile-menu-panel"
        onClick={() => setOpen((o) => !o)}
      >
        <span className="mobile-menu__bars" aria-hidden="true" />
        <span className="mobile-menu__text">Menu</span>
      </button>
      <nav className="mobile-menu__panel" id="mobile-menu-panel" aria-label="Mobile" hidden={!open} onClick={onPanelClick}>
        <ul>
          {links.map((link) => (
            <li key={link.href}>
              <a href={link.href} aria-current={link.current ? 'page' : undefined}>
                {link.label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
}
