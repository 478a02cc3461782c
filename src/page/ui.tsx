// Small pieces every view uses: an error with what to try, a modal dialog, an empty state.
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { ApiError } from './api.js';
import { t } from './i18n.js';

/** An error as the terminal says it: what happened, then what to try. */
export function ErrorBox({ error }: { error: unknown }) {
  if (!error) return null;
  const api = error instanceof ApiError ? error : undefined;
  const text = api
    ? api.status === 0
      ? t('page.err.offline')
      : api.message || t('page.err.unknown')
    : error instanceof Error
      ? error.message
      : String(error);
  const advice = api?.status === 0 ? [t('page.err.offlineTry')] : (api?.advice ?? []);
  return (
    <div class="error" role="alert">
      <p class="error-what">{text}</p>
      {advice.length > 0 && (
        <div class="error-try">
          <span>{t('page.err.try')}</span>
          <ol>
            {advice.map((a) => (
              <li key={a}>{a}</li>
            ))}
          </ol>
        </div>
      )}
    </div>
  );
}

interface DialogProps {
  label: string;
  children: ComponentChildren;
  /** Esc closes it (a plain dialog); an approval passes nothing: it waits for a button. */
  onCancel?: () => void;
  danger?: boolean;
  wide?: boolean;
}

/**
 * A native modal <dialog>: the rest of the page is inert while it is open and focus stays inside.
 * Focus starts on the dialog itself, not on a button, so a stray Enter answers nothing.
 */
export function Dialog({ label, children, onCancel, danger, wide }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  // The latest handler, so that a redraw (new props) neither closes nor reopens the dialog.
  const cancelRef = useRef(onCancel);
  cancelRef.current = onCancel;
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (!d.open) d.showModal();
    d.focus();
    const cancel = (e: Event) => {
      e.preventDefault();
      cancelRef.current?.();
    };
    d.addEventListener('cancel', cancel);
    return () => {
      d.removeEventListener('cancel', cancel);
      if (d.open) d.close();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      class={`dialog${danger ? ' danger' : ''}${wide ? ' wide' : ''}`}
      aria-label={label}
      tabIndex={-1}
    >
      {children}
    </dialog>
  );
}

export function Empty({ children }: { children: ComponentChildren }) {
  return <p class="empty">{children}</p>;
}

export function Loading() {
  return (
    <p class="loading" aria-live="polite">
      {t('page.loading')}
    </p>
  );
}

/** Run `fn` at most once per animation frame (streamed text redraws at the screen's pace). */
export function frameThrottle(fn: () => void): () => void {
  let queued = false;
  return () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      fn();
    });
  };
}
