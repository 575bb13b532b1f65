/**
 * The arrows of docs/architecture.md, checked on every import of every source file (tests included).
 * The compiler refuses most of them already (each package's tsconfig lists only the packages it may
 * use); this test also covers tests, scripts and runtime-only imports, and says which rule broke.
 */
import { describe, expect, it } from 'vitest';
import {
  importsOf,
  isTestFile,
  packageOf,
  trackedSources,
  type Import,
  type PackageName,
} from './import-graph';

/** What each package's production code may import (besides itself and npm). */
const ALLOWED: Record<PackageName, readonly PackageName[]> = {
  contract: [],
  'review-domain': ['contract'],
  'document-text': ['contract', 'server-kit'],
  'server-kit': ['contract'],
  reference: ['contract', 'document-text', 'server-kit'],
  'app-server': ['contract', 'review-domain', 'document-text', 'server-kit'],
  'test-kit': ['contract', 'review-domain', 'document-text', 'server-kit', 'reference', 'app-server'],
};

const all: Import[] = trackedSources().flatMap(importsOf);
const describeImport = (i: Import) => `${i.from} imports ${i.specifier}`;

describe('the architecture (docs/architecture.md)', () => {
  it('reads a graph worth checking', () => {
    expect(all.length).toBeGreaterThan(3000);
    expect(all.filter((i) => i.specifier.startsWith('@extraction-review/')).length).toBeGreaterThan(200);
  });

  it('no server or package file imports the browser app (src/)', () => {
    const broken = all.filter((i) => packageOf(i.from) !== null && i.to?.startsWith('src/'));
    expect(broken.map(describeImport)).toEqual([]);
  });

  it('the reference service and the app server never import each other, tests included', () => {
    const broken = all.filter((i) => {
      const from = packageOf(i.from);
      const to = i.to === null ? null : packageOf(i.to);
      return (from === 'reference' && to === 'app-server') || (from === 'app-server' && to === 'reference');
    });
    expect(broken.map(describeImport)).toEqual([]);
  });

  it("each package's production code imports only the packages below it", () => {
    const broken = all.filter((i) => {
      const from = packageOf(i.from);
      const to = i.to === null ? null : packageOf(i.to);
      if (from === null || to === null || from === to || isTestFile(i.from)) return false;
      return !ALLOWED[from].includes(to);
    });
    expect(broken.map(describeImport)).toEqual([]);
  });

  it('only tests, e2e and bench import the test kit', () => {
    const broken = all.filter(
      (i) =>
        i.to !== null &&
        packageOf(i.to) === 'test-kit' &&
        packageOf(i.from) !== 'test-kit' &&
        !isTestFile(i.from) &&
        !/^(e2e|bench)\//.test(i.from) &&
        !/(^|\/)testing(\/|\.tsx?$)/.test(i.from),
    );
    expect(broken.map(describeImport)).toEqual([]);
  });

  it('a browser feature does not import another feature (shared pieces live in app/, lib/, components/)', () => {
    const feature = (file: string) => /^src\/features\/([^/]+)\//.exec(file)?.[1];
    const broken = all.filter((i) => {
      const from = feature(i.from);
      const to = i.to === null ? undefined : feature(i.to);
      return from !== undefined && to !== undefined && from !== to;
    });
    expect(broken.map(describeImport)).toEqual([]);
  });

  it("the app server's folders import one way: no two of them import each other", () => {
    // A folder of server/app, or of its review/ (review/http, review/store, ...); top-level files are
    // the composition (create-app.ts, review/open-review.ts, review/review-context.ts).
    const folder = (file: string): string | undefined => {
      const match = /^server\/app\/(?:(review)\/)?([^/]+)\//.exec(file);
      if (!match) return undefined;
      return match[1] === undefined ? match[2] : `review/${match[2]}`;
    };
    const edges = new Map<string, Import>();
    for (const i of all) {
      if (isTestFile(i.from) || i.to === null) continue;
      const from = folder(i.from);
      const to = folder(i.to);
      if (from !== undefined && to !== undefined && from !== to && from !== 'review' && to !== 'review') {
        edges.set(`${from} -> ${to}`, i);
      }
    }
    const both = [...edges.entries()]
      .filter(([edge]) => {
        const [from, to] = edge.split(' -> ');
        return edges.has(`${to} -> ${from}`);
      })
      .map(([edge, i]) => `${edge}: ${describeImport(i)}`);
    expect(both).toEqual([]);
  });
});
