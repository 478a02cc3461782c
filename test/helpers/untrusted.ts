/** The text inside every untrusted-data boundary, the boundaries removed (support/untrusted.ts). */
export function unwrap(text: string): string {
  return text
    .replace(/<untrusted-data id="[0-9a-f]+" source="[^"]*">\n\(Data from [^\n]*\)\n/g, '')
    .replace(/\n<\/end-untrusted-data id="[0-9a-f]+">/g, '');
}
