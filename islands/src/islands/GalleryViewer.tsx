// Gallery (/gallery): thumbnails open a full-screen viewer with previous/next (buttons and
// Left/Right), Esc and Close to close, focus trapped and returned to the thumbnail of the image
// last shown. Thumbnails load lazily; the viewer loads only the image it shows.
// Props: layout::gallery_props. Without JavaScript each thumbnail links to its image.

import { useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import { Modal } from '../lib/dialog';
import { positionLabel, stepIndex, viewerKeyStep } from '../lib/gallery';
import { isModifiedClick } from '../lib/download';

export interface GalleryImage {
  id: string;
  title: string;
  image: string;
  /** Pixels. */
  width: number;
  height: number;
}

export interface GalleryViewerProps {
  images: GalleryImage[];
}

export default function GalleryViewer({ images }: GalleryViewerProps) {
  const [index, setIndex] = useState<number | null>(null);
  const thumbs = useRef<Array<HTMLAnchorElement | null>>([]);
  // Focus goes back to the thumbnail of whatever image is showing when the viewer closes.
  const returnTo = useRef<HTMLAnchorElement | null>(null);
  returnTo.current = index === null ? returnTo.current : thumbs.current[index];
  const count = images.length;
  const step = (delta: number) => setIndex((i) => (i === null ? i : stepIndex(i, delta, count)));

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const delta = viewerKeyStep(e.key);
    if (delta === null || e.defaultPrevented) return;
    e.preventDefault();
    step(delta);
  };

  const open = (e: MouseEvent<HTMLAnchorElement>, i: number) => {
    if (isModifiedClick(e)) return; // new tab, download: the browser's business
    e.preventDefault();
    setIndex(i);
  };
  const current = index === null ? null : images[index];

  return (
    <>
      <ul className="gallery">
        {images.map((image, i) => (
          <li className="gallery__item" key={image.id}>
            <a
              href={image.image}
              ref={(el) => {
                thumbs.current[i] = el;
              }}
              onClick={(e) => open(e, i)}
              aria-haspopup="dialog"
            >
              <img
                src={image.image}
                alt={image.title}
                width={image.width}
                height={image.height}
                {...(i === 0 ? { fetchPriority: 'high' as const } : { loading: 'lazy' as const })}
              />
            </a>
          </li>
        ))}
      </ul>
      <Modal
        open={current !== null}
        onClose={() => setIndex(null)}
        labelledBy="gallery-viewer-title"
        describedBy="gallery-viewer-position"
        className="viewer viewer--gallery"
        returnFocus={returnTo}
        onKeyDown={onKeyDown}
      >
        {current && index !== null && (
          <>
            <div className="viewer__bar">
              <h2 className="viewer__title" id="gallery-viewer-title">
                {current.title}
              </h2>
              <p className="viewer__position" id="gallery-viewer-position">
                {positionLabel(index, count)}
              </p>
              <button type="button" className="viewer__close" onClick={() => setIndex(null)}>
                <span aria-hidden="true">×</span> Close
              </button>
            </div>
            <figure className="viewer__figure">
              <img
                key={current.id}
                className="viewer__image"
                src={current.image}
                alt={current.title}
                width={current.width}
                height={current.height}
              />
            </figure>
            {count > 1 && (
              <>
                <button type="button" className="viewer__nav viewer__nav--prev" aria-label="Previous image" onClick={() => step(-1)}>
                  <span aria-hidden="true">‹</span>
                </button>
                <button type="button" className="viewer__nav viewer__nav--next" aria-label="Next image" onClick={() => step(1)}>
                  <span aria-hidden="true">›</span>
                </button>
              </>
            )}
          </>
        )}
      </Modal>
    </>
  );
}
