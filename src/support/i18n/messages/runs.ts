import { defineMessages } from '../define.js';

// Folder runs told truly: what is written, replaced, kept, locked, paused, and the run's summary.
export const runs = defineMessages(
  {
    'runs.notWritten.needsAuto':
      'not written: writing files ({tools}) needs your yes, and there is no terminal to ask; run it again with --auto',
    'runs.notWritten.refused': 'not written: {tools} was refused',
    'runs.notWritten.missing':
      'not written: {files} is not on disk after it was written (removed, or the disk was full)',
    'runs.notWritten.none': 'not written: the model answered without saving the file, also when reminded',
    'runs.notWritten.writeFailed': 'not written: {tool} failed and the model answered without the file',
    'runs.notWritten.folderGone': 'not written: the folder {folder} was moved or removed during the run',
    'runs.notWritten.changed': 'not written as zhi wrote it: {files} was changed since (kept as it is)',
    'runs.err.noFileWritten': 'The skill answered without saving its file, also when reminded.',
    'runs.err.cannotWrite': '{skill} writes files, and this run could not let it: nothing was sent.',
    'runs.err.cannotWrite.why': 'Writing ({tools}) needs your yes, and there is no terminal to ask.',
    'runs.try.auto':
      'Run the same command with --auto to let it write into the output folder (zhi never overwrites or deletes a file there), or run it in a terminal to be asked.',
    'batch.err.noJob': 'There is no batch job {id} for this API key.',
    'batch.err.noFile': 'The batch result file {id} is not there (any more) for this API key.',
    'runs.locked': 'Another zhi is already running this skill on {folder}.',
    'runs.lockedBy':
      'It is process {pid} on {host}, started {since} (UTC); two runs would do the same files twice.',
    'runs.try.wait': 'Wait for it to finish, or run the same command with --wait to start when it does.',
    'runs.paused':
      'The API could not be reached for several calls in a row (connection refused, dropped or timed out): the run waits and tries again in {seconds} s. Ctrl+C stops it; the same command later goes on.',
    'runs.pausedServer':
      'The API answered several calls in a row with an error of its own (HTTP 5xx): the run waits and tries again in {seconds} s. Ctrl+C stops it; the same command later goes on.',
    'runs.resumed': 'The API answers again: the run goes on.',
    'runs.batchPartial':
      'The batch job {id} ended "{status}" with {answered} answered: those answers are used; its other {rest} files are done now at the normal price.',
    'runs.dry.saving': '({percent} % less: every model call goes through the Batch API, in rounds)',
    'runs.replacing':
      '{count} files changed since the earlier run (or --force): their earlier outputs are replaced.',
    'runs.batchKept':
      'The batch job {id} is kept: {count} of its files are not written yet. Run the same command again (with --auto to let it write) to write them from its answers without paying again.',
    'runs.lost':
      '{count} files done by an earlier run are done again: what they wrote is no longer in the output folder (moved or deleted).',
    'runs.clashes':
      "Files that share a name but for the extension ({count} groups): each one's outputs are named after its whole name (dup.txt → dup-txt…), so none takes another's:",
    'runs.skipped.start': 'Skipped, not sent to the model ({count}):',
    'runs.skipped.startMany': 'Skipped {count} files, not sent to the model ({parts}), among them:',
    'runs.skipped.end': 'Skipped: {count} (not sent to the model; {parts})',
    'runs.skipped.partEmpty': '{count} empty',
    'runs.skipped.partOther': '{count} of other kinds',
    'runs.skipped.partSep': ', ',
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
    'runs.notWritten.missing': '未写入：{files} 写入后不在磁盘上（被删除了，或磁盘已满）',
    'runs.notWritten.none': '未写入：模型没有保存文件就给出了回答，提醒后仍然如此',
    'runs.notWritten.writeFailed': '未写入：{tool} 失败，模型没有保存文件就给出了回答',
    'runs.notWritten.folderGone': '未写入：运行期间文件夹 {folder} 被移走或删除了',
    'runs.notWritten.changed': '与 zhi 写入的内容不同：{files} 之后被改动过（保持原样）',
    'runs.err.noFileWritten': '技能没有保存文件就给出了回答，提醒后仍然如此。',
    'runs.err.cannotWrite': '{skill} 需要写文件，而这次运行无法允许它写入：什么都没有发送。',
    'runs.err.cannotWrite.why': '写文件（{tools}）需要你确认，但没有终端可以询问。',
    'runs.try.auto':
      '在同一命令后加 --auto，允许它写入输出文件夹（zhi 从不覆盖或删除那里的文件）；或在终端中运行，以便询问你。',
    'batch.err.noJob': '这个 API 密钥下没有批处理任务 {id}。',
    'batch.err.noFile': '这个 API 密钥下（已）没有批处理结果文件 {id}。',
    'runs.locked': '已有另一个 zhi 正在对 {folder} 运行这个技能。',
    'runs.lockedBy': '它是 {host} 上的进程 {pid}，开始于 {since}（UTC）；两个运行会把同样的文件处理两遍。',
    'runs.try.wait': '等它结束，或在同一命令后加 --wait，等它结束后自动开始。',
    'runs.paused':
      '连续几次调用都无法连接 API（连接被拒绝、中断或超时）：运行暂停，{seconds} 秒后重试。按 Ctrl+C 可停止；之后再运行同一命令会接着处理。',
    'runs.pausedServer':
      'API 连续几次调用都返回了它自身的错误（HTTP 5xx）：运行暂停，{seconds} 秒后重试。按 Ctrl+C 可停止；之后再运行同一命令会接着处理。',
    'runs.resumed': 'API 已恢复响应：继续运行。',
    'runs.batchPartial':
      '批处理任务 {id} 以"{status}"结束，已完成 {answered} 个：这些结果会被使用；其余 {rest} 个文件现在按正常价格处理。',
    'runs.dry.saving': '（便宜 {percent}%：每次模型调用都分轮走批处理 API）',
    'runs.replacing': '{count} 个文件自上次运行后有改动（或用了 --force）：它们之前的输出将被替换。',
    'runs.batchKept':
      '批处理任务 {id} 已保留：其中 {count} 个文件尚未写入。再次运行同一命令（加 --auto 以允许写入），即可用它的结果写入，无需再付费。',
    'runs.lost': '{count} 个之前已完成的文件将重新处理：它们写出的文件已不在输出文件夹中（被移走或删除）。',
    'runs.clashes':
      '除扩展名外同名的文件（{count} 组）：每个文件的输出按完整文件名命名（dup.txt → dup-txt…），互不占用：',
    'runs.skipped.start': '已跳过，未发送给模型（{count} 个）：',
    'runs.skipped.startMany': '已跳过 {count} 个文件，未发送给模型（{parts}），其中：',
    'runs.skipped.end': '已跳过：{count} 个（未发送给模型；{parts}）',
    'runs.skipped.partEmpty': '{count} 个空文件',
    'runs.skipped.partOther': '{count} 个其他类型',
    'runs.skipped.partSep': '，',
    'runs.skipped.empty': '空文件',
    'runs.skipped.type': '不是这个技能能读取的文件类型',
    'runs.skipped.more': '……还有 {count} 个',
    'runs.skipped.sep': '、',
    'runs.skipped.why': '已跳过：{files}。',
  },
);
