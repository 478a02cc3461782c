// The files runs wrote: open in the system's own application, download, preview (xlsx/csv as a
// table, md/docx/txt as text; always drawn as text, never as HTML).
import { useEffect, useState } from 'preact/hooks';
import { api, enc } from './api.js';
import { bytes, t, when } from './i18n.js';
import type { OutputFile, Preview } from './types.js';
import { Dialog, Empty, ErrorBox, Loading } from './ui.js';

const PREVIEWABLE = /\.(xlsx|xlsm|csv|tsv|md|markdown|txt|docx|json)$/i;

export function OutputsView() {
  const [files, setFiles] = useState<OutputFile[]>();
  const [error, setError] = useState<unknown>();
  const [note, setNote] = useState('');
  const [preview, setPreview] = useState<{ path: string; data?: Preview; error?: unknown }>();
  useEffect(() => {
    api.get<OutputFile[]>('/api/outputs').then(setFiles, setError);
  }, []);
  const open = async (path: string) => {
    setError(undefined);
    setNote('');
    try {
      await api.post('/api/outputs/open', { path });
      setNote(t('page.outputs.opened', { name: path }));
    } catch (e) {
      setError(e);
    }
  };
  const show = async (path: string) => {
    setPreview({ path });
    try {
      const data = await api.get<Preview>(`/api/outputs/preview?path=${enc(path)}`);
      setPreview({ path, data });
    } catch (e) {
      setPreview({ path, error: e });
    }
  };
  return (
    <section class="view">
      <header class="view-head">
        <h1>{t('page.nav.outputs')}</h1>
      </header>
      <ErrorBox error={error} />
      {note && (
        <p class="ok-note" role="status">
          {note}
        </p>
      )}
      {!files && !error && <Loading />}
      {files?.length === 0 && <Empty>{t('page.outputs.none')}</Empty>}
      {files && files.length > 0 && <OutputTable files={files} onOpen={open} onPreview={show} />}
      {preview && (
        <Dialog label={preview.path} onCancel={() => setPreview(undefined)} wide>
          <div class="preview">
            <header class="view-head">
              <h2>{preview.path}</h2>
              <button type="button" onClick={() => setPreview(undefined)}>
                {t('page.close')}
              </button>
            </header>
            <ErrorBox error={preview.error} />
            {!preview.data && !preview.error && <Loading />}
            {preview.data && <PreviewBody data={preview.data} />}
          </div>
        </Dialog>
      )}
    </section>
  );
}

interface TableProps {
  files: OutputFile[];
  onOpen(path: string): void;
  onPreview(path: string): void;
}

function OutputTable({ files, onOpen, onPreview }: TableProps) {
  return (
    <table class="table">
      <thead>
        <tr>
          <th>{t('page.outputs.file')}</th>
          <th>{t('page.outputs.size')}</th>
          <th>{t('page.outputs.when')}</th>
          <th>
            <span class="sr-only">{t('page.outputs.actions')}</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {files.map((f) => (
          <tr key={f.path}>
            <td class="path">{f.path}</td>
            <td>{bytes(f.size)}</td>
            <td>{when(f.mtime)}</td>
            <td class="actions">
              {PREVIEWABLE.test(f.path) && (
                <button type="button" onClick={() => onPreview(f.path)}>
                  {t('page.outputs.preview')}
                </button>
              )}
              <button type="button" onClick={() => onOpen(f.path)}>
                {t('page.outputs.open')}
              </button>
              <a class="button" href={`/api/outputs/file?path=${enc(f.path)}`} download>
                {t('page.outputs.download')}
              </a>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function PreviewBody({ data }: { data: Preview }) {
  const [sheet, setSheet] = useState(0);
  if (data.kind === 'text') return <pre class="preview-text">{data.text}</pre>;
  const current = data.sheets[sheet] ?? data.sheets[0];
  return (
    <div>
      {data.sheets.length > 1 && (
        <div class="tabs" role="tablist">
          {data.sheets.map((s, i) => (
            <button
              key={s.name}
              type="button"
              role="tab"
              aria-selected={i === sheet}
              class={i === sheet ? 'active' : ''}
              onClick={() => setSheet(i)}
            >
              {s.name}
            </button>
          ))}
        </div>
      )}
      {current && (
        <div class="table-scroll">
          <table class="table sheet">
            <tbody>
              {current.rows.map((row, r) => (
                <tr key={r}>
                  {row.map((cell, c) => (r === 0 ? <th key={c}>{cell}</th> : <td key={c}>{cell}</td>))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
