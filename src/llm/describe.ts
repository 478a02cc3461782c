import { type ErrorText, quoted, ZhiError } from '../support/errors.js';
import { t } from '../support/i18n/index.js';
import { describeNetworkFailure } from './describe-network.js';
import { findModel, isFree } from './models.js';
import type { Platform } from './platforms.js';
import { MAX_FRAME_BYTES } from './response.js';
import type { ApiErrorInfo } from './types.js';

/**
 * The platform's own words, labelled as such: they are often Chinese whatever the person's language,
 * so an English reader sees whose words they are.
 */
function platformSaid(err: ApiErrorInfo, status: number | undefined = err.status): ErrorText {
  const detail = err.code
    ? status
      ? t('llm.platformSaid.detail', { status, code: err.code })
      : t('llm.platformSaid.code', { code: err.code })
    : '';
  return { key: 'llm.platformSaid', params: { message: err.message, detail } };
}

/** Turn an API failure into what/why/try for a person. The server's own words are the "why". */
export function describeApiError(err: ApiErrorInfo, platform: Platform, model?: string): ZhiError {
  return describeByCode(err, platform) ?? describeByKind(err, platform, model);
}

/** Failures whose code says more than their kind: a cut stream, a wrong address, a plan limit. */
function describeByCode(err: ApiErrorInfo, platform: Platform): ZhiError | undefined {
  if (err.code === 'stream_cut' || err.code === 'stream_cut_empty') {
    const some = err.code === 'stream_cut';
    // The transport's own words (`UND_ERR_SOCKET: other side closed`) are for the log, not the person.
    return new ZhiError({
      kind: 'network',
      what: { key: some ? 'llm.cutMidway' : 'llm.cutBefore' },
      why: { key: 'llm.cutWhy' },
      tries: [{ key: some ? 'llm.cutMidway.try' : 'llm.cutBefore.try' }, { key: 'llm.network.try1' }],
    });
  }
  if (err.code === 'answer_too_long' || err.code === 'answer_too_slow') {
    return new ZhiError({
      kind: 'server',
      what: { key: err.code === 'answer_too_long' ? 'llm.tooLong.what' : 'llm.tooSlow.what' },
      tries: [{ key: 'llm.endless.try' }],
    });
  }
  if (err.code === 'frame_too_long') {
    return new ZhiError({
      kind: 'server',
      what: { key: 'llm.frameTooLong.what' },
      why: { key: 'llm.frameTooLong.why', params: { mb: MAX_FRAME_BYTES / 1024 / 1024 } },
      tries: [{ key: 'llm.frameTooLong.try' }],
    });
  }
  if (err.code === 'wrong_base_url') {
    return new ZhiError({
      kind: 'config',
      what: { key: 'llm.baseUrl.what' },
      why: { key: 'llm.baseUrl.why', params: { url: err.url ?? platform.baseUrl } },
      tries: [
        { key: 'llm.baseUrl.try1' },
        { key: 'llm.baseUrl.try2', params: { url: platform.baseUrl || '-' } },
      ],
    });
  }
  if (err.code === 'server_stopped') {
    return new ZhiError({
      kind: 'server',
      what: { key: 'llm.serverStopped.what' },
      why: quoted(err.message, 'cli.by.platform'),
      tries: [{ key: 'llm.serverStopped.try' }],
    });
  }
  if (err.code === '1211') {
    return new ZhiError({
      kind: 'bad_request',
      what: { key: 'llm.noModel.what' },
      why: platformSaid(err, err.status ?? 400),
      tries: [{ key: 'llm.noModel.try1' }, { key: 'llm.noModel.try2' }],
    });
  }
  // "tools参数非法": more tools than the API takes (its documented limit is 128).
  if (err.code === '1214' && /\btools?\b/i.test(err.message)) {
    return new ZhiError({
      kind: 'bad_request',
      what: { key: 'llm.tooManyTools.what' },
      why: platformSaid(err, err.status ?? 400),
      tries: [{ key: 'llm.tooManyTools.try' }],
    });
  }
  if (err.resetAt) {
    return new ZhiError({
      kind: 'rate_limit',
      what: { key: 'llm.planLimit.what' },
      why: platformSaid(err, err.status ?? 429),
      tries: [{ key: 'llm.planLimit.try1', params: { time: err.resetAt } }, { key: 'llm.planLimit.try2' }],
    });
  }
  return undefined;
}

/** Every other failure, by its kind; the server's message (and code) is the "why". */
function describeByKind(err: ApiErrorInfo, platform: Platform, model?: string): ZhiError {
  // Without a code the message is the transport's (or zhi's own), not the platform's answer.
  const why = err.code ? platformSaid(err) : quoted(err.message, 'cli.by.system');
  const make = (what: ErrorText['key'], tries: ErrorText[]) =>
    new ZhiError({ kind: err.kind, what: { key: what }, why, tries });
  switch (err.kind) {
    case 'auth':
      return make('llm.auth.what', [{ key: 'llm.auth.try1' }, { key: 'llm.auth.try2' }]);
    case 'balance':
      return make('llm.balance.what', [balanceTry(platform, model), { key: 'llm.balance.try2' }]);
    case 'rate_limit':
      return make('llm.rateLimit.what', [{ key: 'llm.rateLimit.try' }]);
    case 'overloaded':
      return make('llm.overloaded.what', [{ key: 'llm.overloaded.try' }]);
    case 'context_overflow':
      return make('llm.context.what', [{ key: 'llm.context.try' }]);
    case 'content_filter':
      return make('llm.filter.what', [{ key: 'llm.filter.try' }]);
    case 'bad_request':
      return make('llm.badRequest.what', [{ key: 'llm.badRequest.try' }]);
    case 'server':
      return make('llm.server.what', [{ key: 'llm.server.try' }]);
    case 'timeout':
      return make('llm.timeout.what', [{ key: 'llm.timeout.try' }]);
    case 'aborted':
      return new ZhiError({ kind: 'aborted', what: { key: 'cli.interrupted' } });
    default:
      return (
        describeNetworkFailure(err) ??
        make('llm.network.what', [{ key: 'llm.network.try1' }, { key: 'llm.network.try2' }])
      );
  }
}

/** Top up, or a free model — unless the refused call already used a free one. */
function balanceTry(platform: Platform, model: string | undefined): ErrorText {
  const info = model ? findModel(model) : undefined;
  const url = platform.keyUrl?.replace(/\/usercenter.*|\/manage-apikey.*/, '');
  if (info && isFree(info, platform))
    return url
      ? { key: 'llm.balance.try1Free', params: { url, model: info.id } }
      : { key: 'llm.balance.try1FreeCustom', params: { model: info.id } };
  return url ? { key: 'llm.balance.try1', params: { url } } : { key: 'llm.balance.try1Custom' };
}
