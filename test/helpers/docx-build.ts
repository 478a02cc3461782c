/**
 * A .docx written as raw WordprocessingML, for structure the `docx` package does not write or
 * tests need exactly: gridBefore, vMerge/gridSpan merges, a table inside a cell, several
 * paragraphs in a cell, an OMML equation, comments, header and footer, nested list levels.
 */
import JSZip from 'jszip';

const W =
  'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math"';

export const p = (text: string, extra = '') =>
  `<w:p>${extra}<w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;

export const tc = (content: string, props = '') => `<w:tc><w:tcPr>${props}</w:tcPr>${content}</w:tc>`;

export const tr = (cells: string, props = '') =>
  `<w:tr>${props ? `<w:trPr>${props}</w:trPr>` : ''}${cells}</w:tr>`;

export const tbl = (rows: string) => `<w:tbl><w:tblPr/>${rows}</w:tbl>`;

/** A list paragraph at a level of numbering 1 (bullets) or 2 (decimal). */
export const li = (text: string, level: number, numId: 1 | 2 | 3 = 1) =>
  p(text, `<w:pPr><w:numPr><w:ilvl w:val="${level}"/><w:numId w:val="${numId}"/></w:numPr></w:pPr>`);

export interface DocxSpec {
  body: string;
  header?: string;
  footer?: string;
  comments?: { id: number; author: string; text: string }[];
}

export async function buildDocx(spec: DocxSpec): Promise<Buffer> {
  const zip = new JSZip();
  zip.file(
    '[Content_Types].xml',
    '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
  );
  zip.file(
    '_rels/.rels',
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
  );
  const rels = [
    '<Relationship Id="rIdS" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>',
    '<Relationship Id="rIdN" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/numbering" Target="numbering.xml"/>',
  ];
  let sect = '';
  if (spec.header) {
    rels.push(
      '<Relationship Id="rIdH" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/header" Target="header1.xml"/>',
    );
    zip.file(
      'word/header1.xml',
      `<?xml version="1.0" encoding="UTF-8"?><w:hdr ${W}>${p(spec.header)}</w:hdr>`,
    );
    sect += '<w:headerReference w:type="default" r:id="rIdH"/>';
  }
  if (spec.footer) {
    rels.push(
      '<Relationship Id="rIdF" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/footer" Target="footer1.xml"/>',
    );
    zip.file(
      'word/footer1.xml',
      `<?xml version="1.0" encoding="UTF-8"?><w:ftr ${W}>${p(spec.footer)}</w:ftr>`,
    );
    sect += '<w:footerReference w:type="default" r:id="rIdF"/>';
  }
  if (spec.comments) {
    rels.push(
      '<Relationship Id="rIdC" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/comments" Target="comments.xml"/>',
    );
    zip.file(
      'word/comments.xml',
      `<?xml version="1.0" encoding="UTF-8"?><w:comments ${W}>${spec.comments.map((c) => `<w:comment w:id="${c.id}" w:author="${c.author}">${p(c.text)}</w:comment>`).join('')}</w:comments>`,
    );
  }
  zip.file(
    'word/_rels/document.xml.rels',
    `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${rels.join('')}</Relationships>`,
  );
  zip.file(
    'word/styles.xml',
    `<?xml version="1.0" encoding="UTF-8"?><w:styles ${W}><w:style w:type="paragraph" w:styleId="1"><w:name w:val="heading 1"/></w:style><w:style w:type="paragraph" w:styleId="2"><w:name w:val="标题 2"/></w:style><w:style w:type="paragraph" w:styleId="ListNumber"><w:name w:val="List Number"/><w:pPr><w:numPr><w:numId w:val="2"/></w:numPr></w:pPr></w:style></w:styles>`,
  );
  const lvls = (fmt: string) =>
    [0, 1, 2].map((l) => `<w:lvl w:ilvl="${l}"><w:numFmt w:val="${fmt}"/></w:lvl>`).join('');
  zip.file(
    'word/numbering.xml',
    `<?xml version="1.0" encoding="UTF-8"?><w:numbering ${W}><w:abstractNum w:abstractNumId="10">${lvls('bullet')}</w:abstractNum><w:abstractNum w:abstractNumId="20">${lvls('decimal')}</w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="10"/></w:num><w:num w:numId="2"><w:abstractNumId w:val="20"/></w:num><w:abstractNum w:abstractNumId="30"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="lowerLetter"/><w:lvlText w:val="%1)"/></w:lvl></w:abstractNum><w:num w:numId="3"><w:abstractNumId w:val="30"/></w:num></w:numbering>`,
  );
  zip.file(
    'word/document.xml',
    `<?xml version="1.0" encoding="UTF-8"?><w:document ${W}><w:body>${spec.body}<w:sectPr>${sect}</w:sectPr></w:body></w:document>`,
  );
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}
