// An approval as a modal dialog with the terminal's wording (the server makes the title and lines
// with the same functions as the terminal's prompt). It waits for a person: no default answer,
// focus on the dialog rather than a button (a stray Enter answers nothing), Esc does not answer.
import { useState } from 'preact/hooks';
import { api, enc } from './api.js';
import { t } from './i18n.js';
import type { Approval } from './types.js';
import { Dialog, ErrorBox } from './ui.js';

type Answer = { answer: 'yes' | 'no' | 'always'; choices?: string[] };

export function ApprovalDialog({
  approval,
  onAnswered,
}: {
  approval: Approval;
  onAnswered(id: string): void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const answer = async (body: Answer) => {
    setBusy(true);
    try {
      await api.post(`/api/approvals/${enc(approval.id)}`, body);
      onAnswered(approval.id);
    } catch (e) {
      // 404: answered already (in another tab) or withdrawn: nothing left to ask.
      if ((e as { status?: number }).status === 404) onAnswered(approval.id);
      else setError(e);
    } finally {
      setBusy(false);
    }
  };
  const question = approval.kind === 'question';
  // The terminal's "[y/N]" is a keyboard hint; here the buttons say the answers.
  const ask = approval.question?.replace(/\s*\[[yY]\/[nN]\]\s*$/, '');
  return (
    <Dialog label={approval.title} danger={approval.danger}>
      <div class="approval" data-testid="approval">
        <h2>{approval.title}</h2>
        {approval.danger && !approval.warning && <p class="danger-note">{t('page.approval.danger')}</p>}
        {approval.lines.length > 0 && <pre class="approval-lines">{approval.lines.join('\n')}</pre>}
        {ask && <p class="approval-question">{ask}</p>}
        <ErrorBox error={error} />
        <div class="approval-buttons">
          <button type="button" class="primary" disabled={busy} onClick={() => answer({ answer: 'yes' })}>
            {question ? t('page.approval.yes') : t('page.approval.allowOnce')}
          </button>
          {approval.choices?.map((c) => (
            <button
              key={c.key}
              type="button"
              disabled={busy}
              onClick={() => answer({ answer: 'yes', choices: [c.key] })}
            >
              {t('page.approval.yesWith', { choice: c.label })}
            </button>
          ))}
          {approval.canAlways && (
            <button type="button" disabled={busy} onClick={() => answer({ answer: 'always' })}>
              {approval.alwaysLabel ? capitalise(approval.alwaysLabel) : t('page.approval.always')}
            </button>
          )}
          <button type="button" disabled={busy} onClick={() => answer({ answer: 'no' })}>
            {question ? t('page.approval.no') : t('page.approval.deny')}
          </button>
        </div>
        <p class="hint">{t('page.approval.waits')}</p>
      </div>
    </Dialog>
  );
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
