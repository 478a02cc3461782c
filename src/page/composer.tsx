// Where the person writes: the text, the attached files (picked, dropped or pasted), Send and Stop.
import { useRef, useState } from 'preact/hooks';
import { bytes, t } from './i18n.js';
import type { Upload } from './types.js';

interface Props {
  running: boolean;
  attachments: Upload[];
  setAttachments(a: Upload[]): void;
  onSend(text: string): Promise<boolean>;
  onStop(): void;
  onFiles(files: File[]): Promise<void>;
  uploading: boolean;
}

export function Composer(p: Props) {
  const [text, setText] = useState('');
  const picker = useRef<HTMLInputElement>(null);
  const attach = (files: File[]) => p.onFiles(files);
  const send = async () => {
    if (p.running || p.uploading || !text.trim()) return;
    if (await p.onSend(text.trim())) setText('');
  };
  const onKey = (e: KeyboardEvent) => {
    // An IME's Enter picks a candidate (Chinese input), it never sends.
    if (e.key !== 'Enter' || e.shiftKey || e.isComposing || e.keyCode === 229) return;
    e.preventDefault();
    void send();
  };
  const onPaste = (e: ClipboardEvent) => {
    const files = [...(e.clipboardData?.items ?? [])]
      .filter((i) => i.kind === 'file')
      .map((i) => i.getAsFile())
      .filter((f): f is File => !!f);
    if (files.length === 0) return;
    e.preventDefault();
    void attach(files);
  };
  return (
    <form
      class="composer"
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
    >
      <Chips attachments={p.attachments} uploading={p.uploading} setAttachments={p.setAttachments} />
      <div class="composer-row">
        <button
          type="button"
          class="icon-button"
          title={t('page.attach.button')}
          aria-label={t('page.attach.button')}
          onClick={() => picker.current?.click()}
        >
          <svg viewBox="0 0 24 24" aria-hidden="true">
            <path d="M16.5 6.5 8.6 14.4a2 2 0 0 0 2.8 2.8l7.9-7.9a4 4 0 0 0-5.7-5.7L5.7 11.5a6 6 0 0 0 8.5 8.5l6.3-6.3" />
          </svg>
        </button>
        <input
          ref={picker}
          type="file"
          multiple
          hidden
          data-testid="file-picker"
          onChange={(e) => {
            const input = e.currentTarget;
            void attach([...(input.files ?? [])]);
            input.value = '';
          }}
        />
        <textarea
          class="composer-input"
          rows={2}
          value={text}
          placeholder={t('page.chat.placeholder')}
          aria-label={t('page.chat.placeholder')}
          onInput={(e) => setText(e.currentTarget.value)}
          onKeyDown={onKey}
          onPaste={onPaste}
        />
        {p.running ? (
          <button type="button" class="stop" onClick={p.onStop} title={t('page.chat.stopHint')}>
            {t('page.chat.stop')}
          </button>
        ) : (
          <button type="submit" class="primary" disabled={!text.trim() || p.uploading}>
            {t('page.chat.send')}
          </button>
        )}
      </div>
      <p class="hint">{p.running ? t('page.chat.stopHint') : t('page.chat.sendHint')}</p>
    </form>
  );
}

interface ChipsProps {
  attachments: Upload[];
  uploading: boolean;
  setAttachments(a: Upload[]): void;
}

/** The files attached to the next message, each removable. */
function Chips(p: ChipsProps) {
  if (p.attachments.length === 0 && !p.uploading) return null;
  return (
    <ul class="chips" aria-label={t('page.attach.list')}>
      {p.attachments.map((a) => (
        <li key={a.id} class="chip">
          <span>{a.name}</span>
          <small>{bytes(a.size)}</small>
          <button
            type="button"
            class="chip-x"
            aria-label={t('page.attach.remove', { name: a.name })}
            onClick={() => p.setAttachments(p.attachments.filter((x) => x.id !== a.id))}
          >
            ×
          </button>
        </li>
      ))}
      {p.uploading && <li class="chip busy">{t('page.attach.uploading')}</li>}
    </ul>
  );
}
