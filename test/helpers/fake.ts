import { afterAll, beforeAll } from 'vitest';
import { FakeZhipu } from '../fake-zhipu/server.js';

/** A fake Zhipu API for the test file: started before its tests, stopped after them. */
export function useFakeZhipu(): FakeZhipu {
  const fake = new FakeZhipu();
  beforeAll(() => fake.start().then(() => undefined));
  afterAll(() => fake.stop());
  return fake;
}
