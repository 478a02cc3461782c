import { defineMessages } from '../define.js';

// Folder runs: progress, resume, failures, the Batch API, long documents, --dry-run.
export const batch = defineMessages(
  {
    'batch.cmd.usage': 'Usage: zhi batch list | status <id> | results <id> | cancel <id>',
    'batch.cmd.none': 'No batch jobs.',
    'batch.cmd.counts': '{completed}/{total} answered · {failed} failed',
    'batch.cmd.run':
      'Submitted by: zhi run {skill} {folder} --batch (run it again, or `zhi batch results {id}`, to collect the results)',
    'batch.cmd.noRun': 'No folder run in this output folder submitted this job.',
    'batch.cmd.noRunFor': 'No folder run in this output folder submitted the batch job {id}.',
    'batch.cmd.tryFolder':
      'Run the command in the folder where you started `zhi run … --batch` (with the same --output-dir).',
    'batch.err.noApi': 'The Batch API is not available here (no API client).',
    'batch.err.needsPerson':
      'The skill {skill} cannot run as a batch job: its tools ({tools}) ask a person every time, and a batch job cannot wait for an answer.',
    'batch.err.jobEnded': 'The batch job {id} ended with the status "{status}" and produced no results.',
    'batch.try.noBatch': 'Run the same command without --batch to process the files now at the normal price.',
    'batch.try.again': 'Run the same command again to submit a new job.',
    'batch.submitted':
      'Batch job {id} submitted: {total} files (results within 24 hours at about half price).',
    'batch.submitted.hint':
      'You can close this terminal: the same command, or `zhi batch results {id}`, collects the results later.',
    'batch.waiting': 'Batch job {id}: {status} · {completed}/{total} answered',
    'batch.results': 'Batch job {id} finished: {answered} answers; the remaining tool turns run here now.',
    'batch.results.failed': '{failed} requests of the job failed; those files run now at the normal price.',
    'batch.interrupted':
      'Stopped waiting. The job {id} goes on; run the same command (or `zhi batch results {id}`) to collect it.',
    'batch.err.jobs': 'a whole number from 1 to {max} is expected',
    'batch.err.forceResume':
      '--force and --resume contradict each other: --resume skips finished files, --force redoes them.',
    'batch.reason.turnLimit': 'the skill used all its turns without an answer',
    'batch.reason.aborted': 'interrupted',
    'batch.reason.unknown': 'no answer',
    'batch.start': '{todo} of {total} files to process, {jobs} at a time',
    'batch.start.earlier': '{earlier} already done by an earlier run (skipped; --force redoes them)',
    'batch.start.skillChanged': 'The skill changed since the earlier run: its files are done again.',
    'batch.start.nothing': 'Every file is already done (the earlier results are below; --force redoes them).',
    'batch.progress.spent': '{cost} so far',
    'batch.progress.left': 'about {time} left',
    'batch.file.done': 'done',
    'batch.file.failed': 'failed: {reason}',
    'batch.file.retry': 'the API is busy; trying {file} again with fewer at once',
    'batch.end.failures': 'Files that failed ({count}):',
    'batch.end.outputs': 'Written ({count} files):',
    'batch.end.more': '… and {count} more (all listed in {manifest})',
    'batch.end.notStarted': '{count} files were not started; run the same command again to do them.',
    'batch.end.manifest': 'Run record: {path}',
  },
  {
    'batch.cmd.usage': '用法：zhi batch list | status <id> | results <id> | cancel <id>',
    'batch.cmd.none': '没有批处理任务。',
    'batch.cmd.counts': '已完成 {completed}/{total} · 失败 {failed}',
    'batch.cmd.run':
      '提交自：zhi run {skill} {folder} --batch（再次运行它，或 `zhi batch results {id}`，即可取回结果）',
    'batch.cmd.noRun': '此输出文件夹中没有提交该任务的文件夹运行记录。',
    'batch.cmd.noRunFor': '此输出文件夹中没有提交批处理任务 {id} 的运行记录。',
    'batch.cmd.tryFolder': '请在启动 `zhi run … --batch` 的文件夹中运行此命令（使用相同的 --output-dir）。',
    'batch.err.noApi': '此处无法使用批处理 API（没有 API 客户端）。',
    'batch.err.needsPerson':
      '技能 {skill} 不能作为批处理任务运行：它的工具（{tools}）每次都要询问用户，而批处理任务无法等待回答。',
    'batch.err.jobEnded': '批处理任务 {id} 以状态 "{status}" 结束，没有产生结果。',
    'batch.try.noBatch': '去掉 --batch 重新运行同一命令，即可按正常价格立即处理这些文件。',
    'batch.try.again': '再次运行同一命令以提交新的任务。',
    'batch.submitted': '已提交批处理任务 {id}：{total} 个文件（24 小时内返回结果，价格约为一半）。',
    'batch.submitted.hint': '可以关闭终端：稍后运行同一命令或 `zhi batch results {id}` 即可取回结果。',
    'batch.waiting': '批处理任务 {id}：{status} · 已完成 {completed}/{total}',
    'batch.results': '批处理任务 {id} 已完成：{answered} 个结果；剩余的工具调用现在在本地完成。',
    'batch.results.failed': '任务中有 {failed} 个请求失败；这些文件现在按正常价格处理。',
    'batch.interrupted':
      '已停止等待。任务 {id} 仍在进行；运行同一命令（或 `zhi batch results {id}`）即可取回结果。',
    'batch.err.jobs': '应为 1 到 {max} 之间的整数',
    'batch.err.forceResume':
      '--force 与 --resume 互相矛盾：--resume 跳过已完成的文件，--force 重新处理它们。',
    'batch.reason.turnLimit': '技能用完了所有轮次，仍未给出结果',
    'batch.reason.aborted': '已中断',
    'batch.reason.unknown': '没有结果',
    'batch.start': '共 {total} 个文件，本次处理 {todo} 个，每次同时 {jobs} 个',
    'batch.start.earlier': '{earlier} 个已在之前的运行中完成（跳过；用 --force 重新处理）',
    'batch.start.skillChanged': '技能在上次运行后有改动：其文件将重新处理。',
    'batch.start.nothing': '所有文件都已完成（之前的结果见下；用 --force 重新处理）。',
    'batch.progress.spent': '已花费 {cost}',
    'batch.progress.left': '约剩 {time}',
    'batch.file.done': '完成',
    'batch.file.failed': '失败：{reason}',
    'batch.file.retry': 'API 繁忙；减少同时处理的数量后重试 {file}',
    'batch.end.failures': '处理失败的文件（{count} 个）：',
    'batch.end.outputs': '已写入（{count} 个文件）：',
    'batch.end.more': '……另有 {count} 个（全部列在 {manifest} 中）',
    'batch.end.notStarted': '{count} 个文件尚未开始；再次运行同一命令即可继续处理。',
    'batch.end.manifest': '运行记录：{path}',
  },
);
