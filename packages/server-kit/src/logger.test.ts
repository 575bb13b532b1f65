/** The one logger: which format, which level, and what never reaches a line. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  choosesJson,
  componentLogger,
  createLogger,
  memoryDestination,
  rootLogger,
  scrubSecrets,
  useRootLogger,
  withLogFields,
} from './logger';
import { LogSettings, parseSettings } from './settings-schema';

describe('the format', () => {
  it('is JSON lines off a terminal, readable lines on one, unless LOG_FORMAT forces one', () => {
    expect(choosesJson('auto', false)).toBe(true);
    expect(choosesJson('auto', true)).toBe(false);
    expect(choosesJson('json', true)).toBe(true);
    expect(choosesJson('pretty', false)).toBe(false);
  });

  it('writes one JSON object per line with time, level and msg', () => {
    const out = memoryDestination();
    createLogger({ format: 'json', destination: out }).info({ route: '/api/x' }, 'hello');
    expect(out.lines).toHaveLength(1);
    const [line] = out.records();
    expect(line).toMatchObject({ level: 'info', msg: 'hello', route: '/api/x' });
    expect(new Date(String(line?.time)).toISOString()).toBe(line?.time);
  });

  it('writes readable lines in pretty, on a terminal by default', () => {
    const out = memoryDestination();
    createLogger({ format: 'auto', isTty: true, destination: out }).warn({ route: '/api/x' }, 'hello');
    expect(out.lines).toHaveLength(1);
    expect(out.lines[0]).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] WARN: hello/);
    expect(out.lines[0]).toContain('/api/x');
    expect(() => JSON.parse(out.lines[0] ?? '')).toThrow();
  });

  it("puts an error's stack in a field of its one line", () => {
    const out = memoryDestination();
    createLogger({ format: 'json', destination: out }).error({ err: new TypeError('boom') }, 'failed');
    expect(out.lines).toHaveLength(1);
    expect(out.records()[0]).toMatchObject({
      err: { type: 'TypeError', message: 'boom', stack: expect.stringContaining('TypeError: boom\n    at ') },
    });
  });
});

describe('the level', () => {
  it('drops what is below it', () => {
    const out = memoryDestination();
    const logger = createLogger({ format: 'json', level: 'warn', destination: out });
    logger.info('not written');
    logger.debug('not written');
    logger.warn('written');
    logger.error('written too');
    expect(out.records().map((line) => line.level)).toEqual(['warn', 'error']);
  });

  it('is read from LOG_LEVEL and LOG_FORMAT, any case, refusing what is not one', () => {
    const schema = z.object(LogSettings);
    expect(parseSettings(schema, {}, 'x')).toEqual({ LOG_FORMAT: 'auto', LOG_LEVEL: 'info' });
    expect(parseSettings(schema, { LOG_FORMAT: ' JSON', LOG_LEVEL: 'Debug' }, 'x')).toEqual({
      LOG_FORMAT: 'json',
      LOG_LEVEL: 'debug',
    });
    expect(() => parseSettings(schema, { LOG_LEVEL: 'verbose' }, 'x')).toThrow(
      /LOG_LEVEL: expected one of fatal/,
    );
    expect(() => parseSettings(schema, { LOG_FORMAT: 'text' }, 'x')).toThrow(/LOG_FORMAT/);
  });
});

describe('redaction', () => {
  const upstream = 'https://mindee-user:s3cr3t-pass@api.example.com/v2';

  it('removes URL user-info and key-like query values from any text', () => {
    expect(scrubSecrets(upstream)).toBe('https://[redacted]@api.example.com/v2');
    expect(scrubSecrets('postgres://app:pw@db:5432/review and more')).toBe(
      'postgres://[redacted]@db:5432/review and more',
    );
    expect(scrubSecrets('/files?id=1&api_key=abc123&token=t0k&X-Amz-Signature=ff')).toBe(
      '/files?id=1&api_key=[redacted]&token=[redacted]&X-Amz-Signature=[redacted]',
    );
    expect(scrubSecrets('https://api.example.com/v2?page=2')).toBe('https://api.example.com/v2?page=2');
  });

  it('keeps secrets out of every line: upstream user-info, Authorization, cookies, passwords, keys', () => {
    const out = memoryDestination();
    const logger = createLogger({ format: 'json', destination: out });
    logger.error(`cannot reach ${upstream}`);
    logger.error({ err: new Error(`fetch ${upstream} failed`) }, 'upstream');
    logger.info({ url: `${upstream}?api_key=k-123` }, 'called');
    logger.info(
      {
        headers: { authorization: 'Token abcdef123456', cookie: 'session=sess-987654', 'x-api-key': 'xk-42' },
        res: { headers: { 'set-cookie': 'session=sess-987654; HttpOnly' } },
      },
      'headers',
    );
    logger.info(
      { operator: { name: 'Ada', password: 'correct horse' }, apiKey: 'ak-777', token: 'tok-555' },
      'fields',
    );
    const all = out.lines.join('\n');
    for (const secret of [
      's3cr3t-pass',
      'mindee-user',
      'abcdef123456',
      'sess-987654',
      'xk-42',
      'correct horse',
      'ak-777',
      'tok-555',
      'k-123',
    ])
      expect(all).not.toContain(secret);
    expect(all).toContain('api.example.com');
    expect(out.records()[3]).toMatchObject({
      headers: { authorization: '[redacted]', cookie: '[redacted]' },
    });
  });

  it('scrubs the readable lines too', () => {
    const out = memoryDestination();
    createLogger({ format: 'pretty', destination: out }).warn(`cannot reach ${upstream}`);
    expect(out.lines.join('\n')).not.toContain('s3cr3t-pass');
  });
});

describe('withLogFields', () => {
  it('puts its fields on every line written while its work runs, across awaits, and on none after', async () => {
    const out = memoryDestination();
    const logger = createLogger({ format: 'json', destination: out });
    await withLogFields({ request_id: 'r-1' }, async () => {
      logger.info('before');
      await new Promise((resolve) => setTimeout(resolve, 1));
      logger.child({ component: 'proxy' }).warn({ request_id: 'r-1' }, 'after an await');
    });
    logger.info('outside');
    expect(out.records().map((line) => line.request_id)).toEqual(['r-1', 'r-1', undefined]);
    // One key, never twice, when the line names it too.
    expect(out.lines[1]?.match(/"request_id"/g)).toHaveLength(1);
  });
});

describe('componentLogger', () => {
  it('logs through the root logger of the moment, with its component', () => {
    const before = rootLogger();
    const logger = componentLogger('review events');
    const out = memoryDestination();
    useRootLogger(createLogger({ format: 'json', destination: out }));
    try {
      logger.warn('the LISTEN connection broke');
    } finally {
      useRootLogger(before);
    }
    expect(out.records()).toEqual([
      expect.objectContaining({
        level: 'warn',
        component: 'review events',
        msg: 'the LISTEN connection broke',
      }),
    ]);
  });
});
