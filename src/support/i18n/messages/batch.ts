import { defineMessages } from '../define.js';

// The Batch API: `zhi batch`, jobs and their rounds, what it saved, the skills it cannot take.
export const batch = defineMessages(
  {
    'batch.cmd.usage': 'Usage: zhi batch list | status <id> | results <id> | cancel <id>',
    'batch.cmd.needId': '`zhi batch {action}` needs the id of a batch job.',
    'batch.cmd.tryList': 'See your batch jobs and their ids with `zhi batch list`.',
    'batch.cmd.none': 'No batch jobs.',
    'batch.cmd.counts': '{completed}/{total} answered · {failed} failed',
    'batch.cmd.run':
      'Submitted by: zhi run {skill} {folder} --batch (run it again, or `zhi batch results {id}`, to collect the results)',
    'batch.cmd.noRun': 'No folder run in this output folder submitted this job.',
    'batch.cmd.noRunFor': 'No folder run in this output folder submitted the batch job {id}.',
    'batch.cmd.tryFolder':
      'Run the command in the folder where you started `zhi run … --batch` (with the same --output-dir).',
    'batch.dry.batch': 'with --batch (results within 24 h):',
    'batch.err.noApi': 'The Batch API is not available here (no API client).',
    'batch.err.needsPerson':
      'The skill {skill} cannot run as a batch job: its tools ({tools}) ask a person every time, and a batch job cannot wait for an answer.',
    'batch.err.composite':
      'The skill {skill} cannot run as a batch job: it first runs {each} on every file and then combines their results, each step waiting for the one before, while a batch job answers everything at once, up to 24 hours later.',
    'batch.err.jobEnded': 'The batch job {id} ended with the status "{status}" and produced no results.',
    'batch.err.jobFailed':
      'The Batch API refused the job {id}: it failed its checks, and nothing in it was processed.',
    'batch.try.noBatch': 'Run the same command without --batch to process the files now at the normal price.',
    'batch.try.again': 'Run the same command again to submit a new job.',
    'batch.submitted':
      'Batch job {id} submitted (round {round}): {total} model calls, results within 24 hours at half price.',
    'batch.submitted.hint':
      'You can close this terminal: the same command, or `zhi batch results {id}`, collects the results later.',
    'batch.waiting': 'Batch job {id}: {status} · {completed}/{total} answered',
    'batch.status.validating': 'validating',
    'batch.status.in_progress': 'in progress',
    'batch.status.finalizing': 'finalizing',
    'batch.status.completed': 'completed',
    'batch.status.failed': 'failed',
    'batch.status.expired': 'expired',
    'batch.status.cancelling': 'cancelling',
    'batch.status.cancelled': 'cancelled',
    'batch.results': 'Batch job {id} finished: {answered} answers; the files go on here now.',
    'batch.err.round': 'A batch round could not be submitted or collected.',
    'batch.end.saved': 'Batch API: {saved} saved ({percent} % less than the same calls online).',
    'batch.results.failed': '{failed} requests of the job failed; those files run now at the normal price.',
    'batch.interrupted':
      'Stopped waiting. The job {id} goes on; run the same command (or `zhi batch results {id}`) to collect it.',
    'batch.notNeeded':
      'The batch job {id} was not used: every file it was for was done since, without it. It is no longer tracked here; if it is still running, `zhi batch cancel {id}` stops it, and `zhi batch status {id}` shows what it processed.',
  },
  {
    'batch.cmd.usage': '用法：zhi batch list | status <id> | results <id> | cancel <id>',
    'batch.cmd.needId': '`zhi batch {action}` 需要一个批处理任务的 id。',
    'batch.cmd.tryList': '用 `zhi batch list` 查看你的批处理任务及其 id。',
    'batch.cmd.none': '没有批处理任务。',
    'batch.cmd.counts': '已完成 {completed}/{total} · 失败 {failed}',
    'batch.cmd.run':
      '提交自：zhi run {skill} {folder} --batch（再次运行它，或 `zhi batch results {id}`，即可取回结果）',
    'batch.cmd.noRun': '此输出文件夹中没有提交该任务的文件夹运行记录。',
    'batch.cmd.noRunFor': '此输出文件夹中没有提交批处理任务 {id} 的运行记录。',
    'batch.cmd.tryFolder': '请在启动 `zhi run … --batch` 的文件夹中运行此命令（使用相同的 --output-dir）。',
    'batch.dry.batch': '使用 --batch（24 小时内出结果）：',
    'batch.err.noApi': '此处无法使用批处理 API（没有 API 客户端）。',
    'batch.err.needsPerson':
      '技能 {skill} 不能作为批处理任务运行：它的工具（{tools}）每次都要询问用户，而批处理任务无法等待回答。',
    'batch.err.composite':
      '技能 {skill} 不能作为批处理任务运行：它先对每个文件运行 {each}，再汇总这些结果，每一步都要等上一步完成，而批处理任务要在最长 24 小时后才一次性返回全部结果。',
    'batch.err.jobEnded': '批处理任务 {id} 以状态 "{status}" 结束，没有产生结果。',
    'batch.err.jobFailed': '批处理 API 拒绝了任务 {id}：它没有通过检查，其中的内容都没有处理。',
    'batch.try.noBatch': '去掉 --batch 重新运行同一命令，即可按正常价格立即处理这些文件。',
    'batch.try.again': '再次运行同一命令以提交新的任务。',
    'batch.submitted':
      '已提交批处理任务 {id}（第 {round} 轮）：{total} 次模型调用，24 小时内返回结果，价格为一半。',
    'batch.submitted.hint': '可以关闭终端：稍后运行同一命令或 `zhi batch results {id}` 即可取回结果。',
    'batch.waiting': '批处理任务 {id}：{status} · 已完成 {completed}/{total}',
    'batch.status.validating': '正在检查输入',
    'batch.status.in_progress': '处理中',
    'batch.status.finalizing': '即将完成',
    'batch.status.completed': '已完成',
    'batch.status.failed': '失败',
    'batch.status.expired': '已过期',
    'batch.status.cancelling': '正在取消',
    'batch.status.cancelled': '已取消',
    'batch.results': '批处理任务 {id} 已完成：{answered} 个结果；文件现在在本地继续处理。',
    'batch.err.round': '批处理的一轮无法提交或取回。',
    'batch.end.saved': '批处理 API：节省了 {saved}（比同样的在线调用便宜 {percent}%）。',
    'batch.results.failed': '任务中有 {failed} 个请求失败；这些文件现在按正常价格处理。',
    'batch.interrupted':
      '已停止等待。任务 {id} 仍在进行；运行同一命令（或 `zhi batch results {id}`）即可取回结果。',
    'batch.notNeeded':
      '批处理任务 {id} 未被使用：它所针对的文件此后都已在不使用它的情况下完成。这里不再跟踪它；如果它仍在运行，`zhi batch cancel {id}` 可以停止它，`zhi batch status {id}` 可查看它处理了多少。',
  },
);
