// Toasts for every island (spec sections 8 and 9; DESIGN.md section 7): react-toastify,
// top-right, closing after 5 s, closable, pausing on hover.
//
// Each island is its own React root, and react-toastify shows every toast in every mounted
// container; so ONE container lives in its own root at the end of <body>, created the first
// time an island asks for it. Islands call useToastHost() once (so the container is there
// before the first toast), then toastSuccess()/toastError().

import { useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { ToastContainer, toast } from 'react-toastify';

/** How long a toast stays, in milliseconds (spec section 9: Toast 5000 ms). */
export const TOAST_AUTO_CLOSE_MS = 5000;
/** Id of the element holding the one toast container. */
export const TOAST_HOST_ID = 'toast-host';

/** Creates the toast container once per document. */
export function ensureToastHost(doc: Document = document): void {
  if (doc.getElementById(TOAST_HOST_ID)) return;
  const host = doc.createElement('div');
  host.id = TOAST_HOST_ID;
  host.className = 'toast-host';
  doc.body.append(host);
  createRoot(host).render(
    <ToastContainer
      position="top-right"
      autoClose={TOAST_AUTO_CLOSE_MS}
      closeButton
      pauseOnHover
      pauseOnFocusLoss
      closeOnClick={false}
      draggable={false}
      newestOnTop
    />,
  );
}

/** Makes sure the toast container exists once the calling island has mounted. */
export function useToastHost(): void {
  useEffect(() => ensureToastHost(), []);
}

export function toastSuccess(message: string): void {
  ensureToastHost();
  toast.success(message);
}

export function toastError(message: string): void {
  ensureToastHost();
  toast.error(message);
}
