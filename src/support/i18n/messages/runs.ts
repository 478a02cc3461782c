import { defineMessages } from '../define.js';

// Folder runs told truly: what is written, replaced, kept, locked, paused, and the run's summary.
export const runs = defineMessages(
  {
    'runs.notWritten.needsAuto':
      'not written: writing files ({tools}) needs your yes, and there is no terminal to ask; run it again with --auto',
    'runs.notWritten.refused': 'not written: {tools} was refused',
    'runs.notWritten.missing': 'not written: {files} is not on disk as it was written (a full disk?)',
    'batch.err.noJob': 'There is no batch job {id} for this API key.',
    'batch.err.noFile': 'The batch result file {id} is not there (any more) for this API key.',
    'runs.locked': 'Another zhi is already running this skill on {folder}.',
    'runs.lockedBy':
      'It is process {pid} on {host}, started {since} (UTC); two runs would do the same files twice.',
    'runs.try.wait': 'Wait for it to finish, or run the same command with --wait to start when it does.',
    'runs.paused':
      'The API cannot be reached (connection refused, dropped or timed out): the run waits and tries again in {seconds} s. Ctrl+C stops it; the same command later goes on.',
    'runs.resumed': 'The API answers again: the run goes on.',
    'runs.batchPartial':
      'The batch job {id} ended "{status}" with {answered} answered: those answers are used; its other {rest} files are done now at the normal price.',
    'runs.dry.saving': '({percent} % less: every model call goes through the Batch API, in rounds)',
    'runs.replacing':
      '{count} files changed since the earlier run (or --force): their earlier outputs are replaced.',
    'runs.batchKept':
      'The batch job {id} is kept: {count} of its files are not written yet. Run the same command again (with --auto to let it write) to write them from its answers without paying again.',
    'runs.skipped.start': 'Skipped, not sent to the model ({count}):',
    'runs.skipped.startMany':
      'Skipped {count} files, not sent to the model ({empty} empty, {other} of other kinds), among them:',
    'runs.skipped.end': 'Skipped: {count} (not sent to the model; {empty} empty, {other} of other kinds)',
    'runs.skipped.empty': 'empty',
    'runs.skipped.type': 'not a kind of file this skill reads',
    'runs.skipped.more': '… and {count} more',
    'runs.skipped.sep': ', ',
    'runs.skipped.why': 'Skipped: {files}.',
  },
  {
    'runs.notWritten.needsAuto':
      '未写入：写文件（{tools}）需要你确认，但没有终端可以询问；请加 --auto 再运行一次',
    'runs.notWritten.refused': '未写入：{tools} 被拒绝',
    'runs.notWritten.missing': '未写入：磁盘上没有按写入内容找到 {files}（磁盘满了？）',
    'batch.err.noJob': '这个 API 密钥下没有批处理任务 {id}。',
    'batch.err.noFile': '这个 API 密钥下（已）没有批处理结果文件 {id}。',
    'runs.locked': '已有另一个 zhi 正在对 {folder} 运行这个技能。',
    'runs.lockedBy': '它是 {host} 上的进程 {pid}，开始于 {since}（UTC）；两个运行会把同样的文件处理两遍。',
    'runs.try.wait': '等它结束，或在同一命令后加 --wait，等它结束后自动开始。',
    'runs.paused':
      '无法连接 API（连接被拒绝、中断或超时）：运行暂停，{seconds} 秒后重试。按 Ctrl+C 可停止；之后再运行同一命令会接着处理。',
    'runs.resumed': 'API 已恢复响应：继续运行。',
    'runs.batchPartial':
      '批处理任务 {id} 以"{status}"结束，已完成 {answered} 个：这些结果会被使用；其余 {rest} 个文件现在按正常价格处理。',
    'runs.dry.saving': '（便宜 {percent}%：每次模型调用都分轮走批处理 API）',
    'runs.replacing': '{count} 个文件自上次运行后有改动（或用了 --force）：它们之前的输出将被替换。',
    'runs.batchKept':
      '批处理任务 {id} 已保留：其中 {count} 个文件尚未写入。再次运行同一命令（加 --auto 以允许写入），即可用它的结果写入，无需再付费。',
    'runs.skipped.start': '已跳过，未发送给模型（{count} 个）：',
    'runs.skipped.startMany':
      '已跳过 {count} 个文件，未发送给模型（{empty} 个空文件，{other} 个其他类型），其中：',
    'runs.skipped.end': '已跳过：{count} 个（未发送给模型；{empty} 个空文件，{other} 个其他类型）',
    'runs.skipped.empty': '空文件',
    'runs.skipped.type': '不是这个技能能读取的文件类型',
    'runs.skipped.more': '……还有 {count} 个',
    'runs.skipped.sep': '、',
    'runs.skipped.why': '已跳过：{files}。',
  },
);
