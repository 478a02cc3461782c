import { shapesInBrief } from '../tools/files/writers/formats.js';
import type { SkillCatalog } from './discovery.js';
import { SKILL_CREATE_TOOL } from './skill-create-entry.js';

/** Starting points for a new skill (`zhi skill new`, `/skill new`). The text is for GLM-5. */
export interface SkillTemplate {
  id: 'blank' | 'file-process' | 'web-extract' | 'translate';
  yaml: string;
}

export const TEMPLATES: SkillTemplate[] = [
  {
    id: 'blank',
    yaml: `name: my-skill
description: One line about what it does
input:
  args:
    - name: file
      type: file
      required: true
system_prompt: |
  You are ... Follow these steps exactly:
  1. ...
  2. ...
  Final answer: ...
tools: [file_write]
`,
  },
  {
    id: 'file-process',
    yaml: `name: process-docs
description: Read a document and write a result file
input:
  description: A document (txt, md, docx, xlsx, pdf; images and scans via OCR)
  args:
    - name: file
      type: file
      required: true
output:
  description: A Markdown report in the output folder
system_prompt: |
  You turn one document into a <result>. The document's text is in the user's message
  (if it says the file is an image or a scan, call ocr with its path first).
  Steps:
  1. ...
  2. Call file_write once with path "<input name without extension>-<result>.md" and the report as Markdown.
  3. Final answer: the report itself, nothing else.
tools: [ocr, file_write]
max_turns: 8
`,
  },
  {
    id: 'web-extract',
    yaml: `name: web-extract
description: Fetch a web page and extract data into a spreadsheet
input:
  args:
    - name: url
      type: string
      required: true
      description: The page to read (http or https)
system_prompt: |
  You extract structured data from one web page.
  Steps:
  1. Call web_fetch with the url from the inputs.
  2. Find the items the user wants (...). Keep every value exactly as on the page.
  3. Call file_write with path "extract.xlsx" and content
     {"sheets": [{"name": "Data", "headers": [...], "rows": [[...], ...]}]}.
  4. Final answer: how many rows were extracted and the file name.
tools: [web_fetch, file_write]
max_turns: 8
`,
  },
  {
    id: 'translate',
    yaml: `name: translate-to-english
description: Translate a document into English, keeping its structure
input:
  args:
    - name: file
      type: file
      required: true
system_prompt: |
  You are a professional translator. Translate the document in the user's message into English.
  Keep the structure: headings, lists, tables, numbers, names and Markdown formatting.
  Translate everything; do not summarise, skip or add anything.
  1. Call file_write with path "<input name without extension>.en.md" and the translation.
  2. Final answer: the translation only, with no introduction.
tools: [file_write]
max_turns: 5
`,
  },
];

export function findTemplate(id: string | undefined): SkillTemplate | undefined {
  return TEMPLATES.find((t) => t.id === id);
}

/** The first message of a skill-creation conversation with GLM-5. */
export function creationSeed(o: {
  template?: SkillTemplate | undefined;
  request?: string | undefined;
  catalog: SkillCatalog;
  tools: readonly string[];
}): string {
  const existing = [...o.catalog.skills.values()].map((s) => `${s.name} (${s.description})`).join('; ');
  const lines = [
    'I want to create a new zhi skill: a YAML recipe that runs on the cheap model glm-4-flash with only the tools it lists.',
    o.request?.trim() ? `What it should do: ${o.request.trim()}` : '',
    o.template
      ? `Start from the "${o.template.id}" template:\n\n\`\`\`yaml\n${o.template.yaml}\`\`\``
      : `Templates to start from: ${TEMPLATES.map((t) => t.id).join(', ')}. Help me pick one.\n\n${TEMPLATES.map((t) => `\`\`\`yaml\n# ${t.id}\n${t.yaml}\`\`\``).join('\n\n')}`,
    [
      'How skills work:',
      '- Input files are read by zhi and put in the first message (text, Markdown from .docx/.xlsx, text PDFs); images and scans need the ocr tool. A directory input gets every supported file.',
      '- Inputs: file and directory inputs are positional on the command line in order; others are --name value.',
      `- Tools: ${o.tools.filter((t) => t !== SKILL_CREATE_TOOL.name).join(', ')}. Other skills can be listed as tools to build a composite skill; existing skills: ${existing || 'none'}.`,
      `- file_write shapes: ${shapesInBrief()}.`,
      '- The model is small: the system_prompt must give numbered steps, the exact tool calls, the output file name and format, and what the final answer contains (the final answer is what the user sees on stdout). zhi adds the language rule itself.',
    ].join('\n'),
    'Ask me only what you need (one or two short questions at most), show me the skill in a few lines, then save it with skill_create. After saving, tell me the command to run it.',
  ];
  return lines.filter(Boolean).join('\n\n');
}
