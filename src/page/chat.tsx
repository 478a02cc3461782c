// The chat: a conversation's history and live run, its approvals, the composer. Files dropped
// anywhere on it are attached; Esc stops the run (as in the terminal).
import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { api, enc } from './api.js';
import { ApprovalDialog } from './approval.js';
import { Composer } from './composer.js';
import { t } from './i18n.js';
import { ItemRow } from './items.js';
import { openStream } from './stream.js';
import { Thread } from './thread.js';
import type { Approval, ConversationDetail, Status, Upload } from './types.js';
import { ErrorBox, frameThrottle } from './ui.js';
import { droppedFiles, uploadAll } from './uploads.js';

interface Props {
  id: string | undefined;
  status: Status;
  navigate(path: string): void;
  onChanged(): void;
}

/** A conversation's history and live run from the server, its approvals, and whether the stream is down. */
function useConversation(id: string | undefined, onChanged: () => void) {
  const thread = useMemo(() => new Thread(), [id]);
  const [, setTick] = useState(0);
  const redraw = useMemo(() => frameThrottle(() => setTick((n) => n + 1)), []);
  const [title, setTitle] = useState('');
  const [approvals, setApprovals] = useState<Approval[]>([]);
  const [error, setError] = useState<unknown>();
  const [offline, setOffline] = useState(false);
  /** Change the thread, then draw it at the next frame. */
  const then = (fn: () => void) => {
    fn();
    redraw();
  };
  useEffect(() => {
    setApprovals([]);
    setError(undefined);
    setTitle('');
    if (!id) return;
    let closed = false;
    let close = () => {};
    api
      .get<ConversationDetail>(`/api/conversations/${enc(id)}`)
      .then((c) => {
        if (closed) return;
        thread.setHistory(c.items, !!c.running);
        setTitle(c.title);
        redraw();
        close = openStream(`/api/conversations/${enc(id)}/events`, {
          event: (ev) => then(() => thread.apply(ev)),
          runStart: (runId) => then(() => thread.start(runId)),
          runEnd: () =>
            then(() => {
              thread.end();
              onChanged();
            }),
          approval: (a) => setApprovals((list) => [...list.filter((x) => x.id !== a.id), a]),
          approvalDone: (aid) => setApprovals((list) => list.filter((x) => x.id !== aid)),
          note: (text) => then(() => thread.note(text)),
          offline: setOffline,
        });
      })
      .catch(setError);
    return () => {
      closed = true;
      close();
    };
  }, [id]);
  const answered = (aid: string) => setApprovals((list) => list.filter((x) => x.id !== aid));
  return { thread, title, approvals, answered, error, setError, offline };
}

export function ChatView({ id, status, navigate, onChanged }: Props) {
  const { thread, title, approvals, answered, error, setError, offline } = useConversation(id, onChanged);
  const { attachments, setAttachments, uploading, attach } = useAttachments(setError);
  const [dragging, setDragging] = useState(false);
  const [sent, setSent] = useState(0);

  const stop = useCallback(() => {
    if (id) api.post(`/api/conversations/${enc(id)}/stop`).catch(setError);
  }, [id]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && thread.running && approvals.length === 0) stop();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [thread, approvals.length, stop]);

  const send = async (text: string): Promise<boolean> => {
    setError(undefined);
    try {
      let target = id;
      if (!target) {
        target = (await api.post<{ id: string }>('/api/conversations')).id;
      }
      await api.post(`/api/conversations/${enc(target)}/messages`, {
        text,
        attachments: attachments.map((a) => a.id),
      });
      setAttachments([]);
      setSent((n) => n + 1);
      if (target !== id) navigate(`/chat/${target}`);
      onChanged();
      return true;
    } catch (e) {
      setError(e);
      return false;
    }
  };

  return (
    <section
      class={`chat${dragging ? ' dragging' : ''}`}
      aria-label={t('page.nav.chat')}
      onDragOver={(e) => {
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={(e) => {
        if (e.currentTarget === e.target) setDragging(false);
      }}
      onDrop={(e) => {
        e.preventDefault();
        setDragging(false);
        if (e.dataTransfer) void droppedFiles(e.dataTransfer).then(attach);
      }}
    >
      <header class="view-head">
        <h1>{title || t('page.chat.new')}</h1>
        <span class="muted">{status.model}</span>
      </header>
      {offline && <p class="banner">{t('page.chat.offline')}</p>}
      <Messages thread={thread} status={status} sent={sent} />
      <ErrorBox error={error} />
      <Composer
        running={thread.running}
        attachments={attachments}
        setAttachments={setAttachments}
        onSend={send}
        onStop={stop}
        onFiles={attach}
        uploading={uploading}
      />
      {dragging && <div class="drop-veil">{t('page.attach.drop')}</div>}
      {approvals[0] && <ApprovalDialog key={approvals[0].id} approval={approvals[0]} onAnswered={answered} />}
    </section>
  );
}

/** Files attached to the next message: uploaded as they are picked, dropped or pasted. */
function useAttachments(setError: (e: unknown) => void) {
  const [attachments, setAttachments] = useState<Upload[]>([]);
  const [uploading, setUploading] = useState(false);
  const attach = async (files: File[]) => {
    if (files.length === 0) return;
    setUploading(true);
    setError(undefined);
    try {
      await uploadAll(files, (u) => setAttachments((list) => [...list, u]));
    } catch (e) {
      setError(e);
    } finally {
      setUploading(false);
    }
  };
  return { attachments, setAttachments, uploading, attach };
}

/**
 * The items, following the answer while the person is at the bottom (and after each message sent):
 * the content's size is watched, as blocks drawn late (off screen until now) change it too.
 */
function Messages({ thread, status, sent }: { thread: Thread; status: Status; sent: number }) {
  const list = useRef<HTMLDivElement>(null);
  const inner = useRef<HTMLDivElement>(null);
  const pinned = useRef(true);
  useEffect(() => {
    pinned.current = true;
  }, [sent]);
  useEffect(() => {
    const el = list.current;
    if (!el || !inner.current) return;
    const follow = () => {
      if (pinned.current) el.scrollTop = el.scrollHeight;
    };
    const watch = new ResizeObserver(follow);
    watch.observe(inner.current);
    return () => watch.disconnect();
  }, []);
  const items = thread.items;
  return (
    <div
      class="messages"
      ref={list}
      onScroll={(e) => {
        const el = e.currentTarget;
        pinned.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
      }}
    >
      {/* A log: read out as it grows, but not token by token (busy while the answer streams). */}
      <div class="messages-inner" ref={inner} role="log" aria-busy={thread.running}>
        {items.length === 0 ? (
          <Welcome status={status} />
        ) : (
          items.map((item, i) => <ItemRow key={i} item={item} fixed={i < thread.base.length} />)
        )}
      </div>
    </div>
  );
}

function Welcome({ status }: { status: Status }) {
  return (
    <div class="welcome">
      <h2>{t('page.chat.welcome')}</h2>
      <p>{t('page.chat.welcomeFolder', { folder: status.cwd })}</p>
      <ul>
        <li>{t('page.chat.example1')}</li>
        <li>{t('page.chat.example2')}</li>
        <li>{t('page.chat.example3')}</li>
      </ul>
    </div>
  );
}
