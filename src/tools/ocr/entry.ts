/** ocr in the tool table (tools/index.ts): it calls the platform through the client it is built with. */
import type { ToolEntry } from '../types.js';

export const OCR_TOOL: ToolEntry = {
  name: 'ocr',
  traits: {
    offer: { search: 'scans, images to text' },
    readsFile: true,
    action: 'tools.action.ocr',
    verb: 'tools.verb.ocr',
  },
  load: async ({ client }) => (await import('./ocr.js')).createOcrTool({ client }),
};
