// Conference materials (spec section 2: one green button per material, title trimmed; section
// 7: read as binary and saved under the record's file name; section 8: alert on failure).
// Props: layout::materials_props. Without JavaScript the links download directly.

import { useState, type MouseEvent } from 'react';
import { DOWNLOAD_FAILED, downloadFile, isModifiedClick } from '../lib/download';

export interface MaterialsProps {
  materials: Array<{ id: string; title: string; fileName: string; href: string }>;
}

export default function Materials({ materials }: MaterialsProps) {
  const [busy, setBusy] = useState<string | null>(null);

  const onClick = async (e: MouseEvent<HTMLAnchorElement>, m: MaterialsProps['materials'][number]) => {
    if (isModifiedClick(e)) return;
    e.preventDefault();
    if (busy) return;
    setBusy(m.id);
    try {
      await downloadFile(m.href, m.fileName);
    } catch {
      window.alert(DOWNLOAD_FAILED);
    } finally {
      setBusy(null);
    }
  };

  return (
    <ul className="materials__list">
      {materials.map((m) => (
        <li key={m.id}>
          <a
            className="button button--green"
            href={m.href}
            download={m.fileName}
            aria-busy={busy === m.id || undefined}
            onClick={(e) => onClick(e, m)}
          >
            {m.title}
          </a>
        </li>
      ))}
    </ul>
  );
}
