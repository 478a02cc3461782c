/** MCP schemas as GLM reads them: every construct a server may write, rewritten into what it means. */
import { describe, expect, it } from 'vitest';
import { cutAtWord, glmSchema, MAX_PROPERTY_DESCRIPTION } from '../../src/tools/mcp/schema.js';

// biome-ignore lint/suspicious/noExplicitAny: schemas are inspected freely
type J = any;

/** What the official Python SDK (Pydantic v2) sends for `def create_invoice(invoice: Invoice)`. */
const PYDANTIC = {
  $defs: {
    Customer: {
      properties: { name: { title: 'Name', type: 'string' }, email: { title: 'Email', type: 'string' } },
      required: ['name'],
      title: 'Customer',
      type: 'object',
    },
    Line: {
      properties: {
        sku: { title: 'Sku', type: 'string' },
        qty: { title: 'Qty', type: 'integer' },
        price: { anyOf: [{ type: 'number' }, { type: 'null' }], default: null, title: 'Price' },
      },
      required: ['sku', 'qty'],
      title: 'Line',
      type: 'object',
    },
    Invoice: {
      description: 'An invoice to create.',
      properties: {
        customer: { $ref: '#/$defs/Customer' },
        lines: { items: { $ref: '#/$defs/Line' }, title: 'Lines', type: 'array' },
        note: { anyOf: [{ type: 'string' }, { type: 'null' }], default: null, title: 'Note' },
      },
      required: ['customer', 'lines'],
      title: 'Invoice',
      type: 'object',
    },
  },
  properties: { invoice: { $ref: '#/$defs/Invoice' } },
  required: ['invoice'],
  title: 'create_invoiceArguments',
  type: 'object',
};

describe('MCP schemas for GLM', () => {
  it('inlines $ref/$defs: a Pydantic model reaches the model with every nested field', () => {
    const s = glmSchema(PYDANTIC) as J;
    expect(JSON.stringify(s)).not.toMatch(/\$ref|\$defs|title/);
    expect(s.required).toEqual(['invoice']);
    const invoice = s.properties.invoice;
    expect(invoice.type).toBe('object');
    expect(invoice.description).toBe('An invoice to create.');
    expect(invoice.required).toEqual(['customer', 'lines']);
    expect(invoice.properties.customer.properties.name).toEqual({ type: 'string' });
    expect(invoice.properties.lines.items.properties.qty).toEqual({ type: 'integer' });
    expect(invoice.properties.lines.items.required).toEqual(['sku', 'qty']);
  });

  it('makes an optional field (anyOf with null) its plain type, keeping its default', () => {
    const s = glmSchema(PYDANTIC) as J;
    expect(s.properties.invoice.properties.note).toEqual({ type: 'string', default: null });
    expect(s.properties.invoice.properties.lines.items.properties.price).toEqual({
      type: 'number',
      default: null,
    });
  });

  it('reads old-style definitions and a $ref with its own description', () => {
    const s = glmSchema({
      definitions: { Point: { type: 'object', properties: { x: { type: 'number' } } } },
      properties: { at: { $ref: '#/definitions/Point', description: 'Where' } },
    }) as J;
    expect(s.properties.at).toEqual({
      type: 'object',
      properties: { x: { type: 'number' } },
      description: 'Where',
    });
  });

  it('stops at a recursive type: spelled out once, then described', () => {
    const s = glmSchema({
      $defs: {
        Node: {
          type: 'object',
          properties: {
            label: { type: 'string' },
            children: { type: 'array', items: { $ref: '#/$defs/Node' } },
          },
        },
      },
      properties: { tree: { $ref: '#/$defs/Node' } },
    }) as J;
    const tree = s.properties.tree;
    expect(tree.properties.label).toEqual({ type: 'string' });
    expect(tree.properties.children.items).toEqual({
      type: 'object',
      description: 'A Node object, shaped like its parent.',
    });
  });

  it('a $ref to nothing keeps the field and says which type it wanted', () => {
    const s = glmSchema({ properties: { x: { $ref: '#/$defs/Missing' } } }) as J;
    expect(s.properties.x).toEqual({ description: '(Missing)' });
  });

  it('turns type arrays into one type and names the others', () => {
    const s = glmSchema({
      properties: {
        a: { type: ['string', 'null'] },
        b: { type: ['string', 'number'], description: 'An id' },
      },
    }) as J;
    expect(s.properties.a).toEqual({ type: 'string' });
    expect(s.properties.b).toEqual({ type: 'string', description: 'An id (one of: string, number)' });
  });

  it('anyOf of different kinds: the first is the schema, the others are named; objects merge', () => {
    const s = glmSchema({
      properties: {
        when: { anyOf: [{ type: 'string' }, { type: 'integer' }], description: 'A date' },
        target: {
          oneOf: [
            { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
            { type: 'object', properties: { url: { type: 'string' } } },
          ],
        },
        mode: { anyOf: [{ type: 'string', enum: ['a', 'b'] }, { type: 'boolean' }] },
      },
    }) as J;
    expect(s.properties.when).toEqual({ type: 'string', description: 'A date (or: integer)' });
    expect(s.properties.target).toEqual({
      type: 'object',
      properties: { path: { type: 'string' }, url: { type: 'string' } },
      required: ['path'],
    });
    expect(s.properties.mode.enum).toEqual(['a', 'b']);
    expect(s.properties.mode.description).toBe('(or: boolean)');
  });

  it('allOf merges its parts; const becomes a one-value enum; a tuple is its first item', () => {
    const s = glmSchema({
      $defs: { A: { type: 'object', properties: { a: { type: 'string' } } } },
      properties: {
        wrapped: { allOf: [{ $ref: '#/$defs/A' }], description: 'Wrapped' },
        kind: { const: 'fixed' },
        pair: { type: 'array', items: [{ type: 'number' }, { type: 'number' }] },
      },
    }) as J;
    expect(s.properties.wrapped).toEqual({
      type: 'object',
      properties: { a: { type: 'string' } },
      description: 'Wrapped',
    });
    expect(s.properties.kind).toEqual({ enum: ['fixed'], type: 'string' });
    expect(s.properties.pair.items).toEqual({ type: 'number' });
  });

  it('drops keywords GLM does not read and always gives an object with properties', () => {
    expect(
      glmSchema({
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        additionalProperties: false,
        properties: { path: { type: 'string', format: 'uri', description: 'd', title: 'Path' } },
        required: ['path'],
      }),
    ).toEqual({
      type: 'object',
      properties: { path: { type: 'string', description: 'd' } },
      required: ['path'],
    });
    expect(glmSchema(undefined)).toEqual({ type: 'object', properties: {} });
  });

  it('resolves $refs into the schema itself (#/properties/…, as zod-to-json-schema writes), escaped keys too', () => {
    const out: J = glmSchema({
      type: 'object',
      properties: {
        billing: {
          type: 'object',
          properties: { street: { type: 'string' }, zip: { type: 'string', pattern: '^\\d{6}$' } },
          required: ['street'],
        },
        shipping: { $ref: '#/properties/billing', description: 'Where it goes.' },
        'a/b': { type: 'integer' },
        slashed: { $ref: '#/properties/a~1b' },
        tags: { type: 'array', items: { type: 'string', pattern: '^[a-z]+$' } },
        copy: { $ref: '#/properties/tags/items' },
        missing: { $ref: '#/properties/nowhere' },
      },
    });
    expect(out.properties.shipping).toEqual({
      type: 'object',
      properties: { street: { type: 'string' }, zip: { type: 'string', pattern: '^\\d{6}$' } },
      required: ['street'],
      description: 'Where it goes.',
    });
    expect(out.properties.slashed).toEqual({ type: 'integer' });
    expect(out.properties.copy).toEqual({ type: 'string', pattern: '^[a-z]+$' });
    expect(out.properties.missing.description).toBe('(nowhere)');
    expect(JSON.stringify(out)).not.toContain('$ref');
  });

  it('a $ref to the whole schema (#) is spelled out once, then described', () => {
    const out: J = glmSchema({
      type: 'object',
      properties: { name: { type: 'string' }, child: { $ref: '#' } },
    });
    expect(out.properties.child.properties.name).toEqual({ type: 'string' });
    expect(out.properties.child.properties.child.type).toBe('object');
    expect(JSON.stringify(out)).not.toContain('$ref');
  });

  it('keeps descriptions whole up to the limit and cuts longer ones at a word', () => {
    const long = 'word '.repeat(400).trim();
    const s = glmSchema({ properties: { p: { type: 'string', description: long } } }) as J;
    const d: string = s.properties.p.description;
    expect(d.length).toBeLessThanOrEqual(MAX_PROPERTY_DESCRIPTION);
    expect(d).toMatch(/ word…$/);
    expect(cutAtWord('short', 10)).toBe('short');
    expect(cutAtWord('alpha beta gamma', 12)).toBe('alpha beta…');
  });
});
