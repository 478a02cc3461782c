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
  },
);
