import { defineMessages } from '../define.js';

// What a person reads about the file tools (permission previews, the overwrite question).
// Tool results themselves are read by the model and stay in English.
export const files = defineMessages(
  {
    'files.preview.head': '{path} ({format}, {size} of content)',
    'files.preview.more': '… {n} more lines',
    'files.overwrite.question': '{path} already exists. Replace it with the new {format}?',
    'files.overwrite.detail':
      'The existing file ({size}, modified {date}) will be replaced. Answer no to keep it.',
    'files.format.md': 'Markdown',
    'files.format.txt': 'text',
    'files.format.json': 'JSON',
    'files.format.csv': 'CSV table',
    'files.format.xlsx': 'Excel workbook',
    'files.format.docx': 'Word document',
    'files.format.pptx': 'PowerPoint presentation',
    'files.doc.not_found': 'The file does not exist.',
    'files.doc.not_regular':
      'It is not a regular file but a named pipe, a device or a socket, which zhi does not read (it could wait forever).',
    'files.doc.is_directory': 'It is a folder, not a file.',
    'files.doc.permission': 'Permission denied: the file cannot be opened for reading.',
    'files.doc.binary':
      'It is not a text file or a document zhi can read (Office, WPS, OpenDocument, PDF, text).',
    'files.doc.too_large': 'The file is too large to read.',
    'files.doc.unreadable': 'The file is damaged, or not really the kind of file its extension says.',
    'files.doc.encrypted': 'The file is password-protected.',
    'files.doc.unsupported':
      'Reading old Excel, PowerPoint and WPS files needs LibreOffice, which is not installed: install it, or save the file as .xlsx or .pptx.',
    'files.doc.no_text_layer': 'It has no text that can be read directly (a scan, or undecodable fonts).',
  },
  {
    'files.preview.head': '{path}（{format}，内容 {size}）',
    'files.preview.more': '… 另有 {n} 行',
    'files.overwrite.question': '{path} 已存在。要用新的{format}替换它吗？',
    'files.overwrite.detail': '现有文件（{size}，修改于 {date}）将被替换。回答“否”可保留它。',
    'files.format.md': 'Markdown 文档',
    'files.format.txt': '文本',
    'files.format.json': 'JSON',
    'files.format.csv': 'CSV 表格',
    'files.format.xlsx': 'Excel 工作簿',
    'files.format.docx': 'Word 文档',
    'files.format.pptx': 'PowerPoint 演示文稿',
    'files.doc.not_found': '文件不存在。',
    'files.doc.not_regular':
      '它不是普通文件，而是命名管道、设备或套接字，zhi 不会读取它（读取可能永远等不到结束）。',
    'files.doc.is_directory': '这是文件夹，不是文件。',
    'files.doc.permission': '没有权限：无法打开该文件读取。',
    'files.doc.binary': '它不是文本文件，也不是 zhi 能读取的文档（Office、WPS、OpenDocument、PDF、文本）。',
    'files.doc.too_large': '文件太大，无法读取。',
    'files.doc.unreadable': '文件已损坏，或者并不是其扩展名所示的格式。',
    'files.doc.encrypted': '文件受密码保护。',
    'files.doc.unsupported':
      '读取旧版 Excel、PowerPoint 和 WPS 文件需要 LibreOffice，但本机没有安装：请安装它，或另存为 .xlsx 或 .pptx。',
    'files.doc.no_text_layer': '其中没有可直接读取的文字（扫描件，或无法解码的字体）。',
  },
);
