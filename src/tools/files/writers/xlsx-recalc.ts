/**
 * The formulas zhi does not compute, given their values by LibreOffice where it is installed: the
 * workbook is recalculated headless (it asks for a full recalculation on load) and saved as
 * .xlsx, and the cached value of each such cell is copied into zhi's own workbook, which keeps
 * its layout. Without LibreOffice, or when it fails, nothing changes and the model is told which
 * formulas have no value.
 */

import { convertWithSoffice, findSoffice } from '../readers/soffice.js';
import { cellName, type FormulaReport } from './xlsx-results.js';

type Result = number | string | boolean | { error: string };

/**
 * Formulas that reach outside the workbook when computed (a URL, another file, DDE, a add-in):
 * LibreOffice is never run on a workbook holding one, so writing a file cannot fetch or read
 * anything — the model's text is not a way around web_fetch's checks.
 */
const REACHES_OUT =
  /\b(?:WEBSERVICE|FILTERXML|DDE|INFO|CALL|REGISTER(?:\.ID)?|RTD|IMAGE|STOCKHISTORY|HYPERLINK|ENCODEURL|CELL)\s*\(|\[|file:|https?:|\.(?:xlsx?|ods|csv)\b|#\$/i;

/** True when any formula of the workbook could reach outside it. */
export function reachesOut(formulas: string[]): boolean {
  return formulas.some((f) => REACHES_OUT.test(f));
}

function resultOf(v: unknown): Result | undefined {
  if (typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean') return v;
  if (v && typeof v === 'object' && 'error' in v && typeof v.error === 'string') return { error: v.error };
  return undefined; // a date, or nothing
}

/**
 * Fill the pending formulas of `report` from LibreOffice's recalculation of `data`; true when at
 * least one was filled (the workbook must then be written again).
 */
export async function recalculateWithLibreOffice(
  data: Buffer,
  report: FormulaReport,
  formulas: string[],
): Promise<boolean> {
  if (!report.pending.length || reachesOut(formulas) || !findSoffice()) return false;
  let converted: Buffer;
  try {
    converted = await convertWithSoffice(data, '.xlsx', 'xlsx');
  } catch {
    return false; // the formulas stay reported as not computed
  }
  const { default: ExcelJS } = await import('exceljs');
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(converted as unknown as ArrayBuffer);
  const left: FormulaReport['pending'] = [];
  const notComputed: string[] = [];
  report.pending.forEach((p, i) => {
    const v = wb.getWorksheet(p.sheet)?.getCell(p.row, p.col).value;
    const result = v && typeof v === 'object' && 'result' in v ? resultOf(v.result) : undefined;
    const formula =
      p.cell.value && typeof p.cell.value === 'object' && 'formula' in p.cell.value
        ? p.cell.value
        : undefined;
    if (result === undefined || !formula) {
      left.push(p);
      notComputed.push(report.notComputed[i]!);
      return;
    }
    formula.result = result;
    report.byLibreOffice.push(`${cellName(p.sheet, p.col, p.row)} =${formula.formula}`);
  });
  report.pending = left;
  report.notComputed = notComputed;
  return report.byLibreOffice.length > 0;
}
