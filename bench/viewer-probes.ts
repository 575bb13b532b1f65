/**
 * Scripts the viewer bench runs inside the page (serialised by Playwright: self-contained, no
 * imports). Times are `performance.now()`, from the page's navigation start.
 */

declare global {
  interface Window {
    __firstDrawn?: { bitmap: number | null; withPolygons: number | null; polygons: number };
    __hover?: { fromInput: number[]; fromDispatch: number[]; slowEvents: number };
  }
}

/**
 * A probe as page source. tsx compiles with esbuild's `keepNames`, which wraps named functions in
 * calls to a `__name` helper that only exists in Node: the page gets a stand-in.
 */
export function pageScript(probe: () => void): string {
  return `(() => { const __name = (target) => target; (${probe.toString()})(); })();`;
}

/**
 * Installed before any page script: notes when page 1's bitmap is on screen (`data-rendered`) and
 * when its polygons are drawn over it too (the bare page marks its own), and when the pdf.js worker
 * is made and ready.
 */
export function firstPageProbe(): void {
  // When the page makes its pdf.js worker, and when the worker first speaks (its 1.2 MB compiled and
  // run): marks `worker:made` and `worker:ready`, for the bench's timeline.
  const NativeWorker = window.Worker;
  window.Worker = class extends NativeWorker {
    constructor(url: string | URL, options?: WorkerOptions) {
      super(url, options);
      if (performance.getEntriesByName('worker:made').length === 0) {
        performance.mark('worker:made');
        this.addEventListener('message', () => performance.mark('worker:ready'), { once: true });
      }
    }
  };
  const record = { bitmap: null as number | null, withPolygons: null as number | null, polygons: 0 };
  window.__firstDrawn = record;
  const check = () => {
    const page = document.querySelector('[data-page-index="0"][data-rendered="true"]');
    if (!page) return;
    record.bitmap ??= performance.now();
    const polygons = page.querySelectorAll('.field-polygon').length;
    if (polygons > 0 && record.withPolygons === null) {
      record.withPolygons = performance.now();
      record.polygons = polygons;
      observer.disconnect();
    }
  };
  const observer = new MutationObserver(check);
  const start = () => observer.observe(document, { subtree: true, childList: true, attributes: true });
  if (document.documentElement) start();
  else document.addEventListener('readystatechange', start, { once: true });
}

/**
 * From the pointer entering a polygon to the end of the frame that paints its highlight: the
 * highlight attribute set, then the next animation frame, then a task queued from it, which runs
 * once that frame is painted (the "next paint" of INP). Measured from two starts: the input event's
 * own timestamp (`fromInput`: includes the browser's wait for the next frame, which it aligns
 * pointer moves to), and the moment the event is dispatched to the page (`fromDispatch`: what the
 * page's own work costs). Also counts the pointer-overs Event Timing saw take 16 ms or more.
 */
export function hoverProbe(): void {
  const record = { fromInput: [] as number[], fromDispatch: [] as number[], slowEvents: 0 };
  window.__hover = record;
  const afterPaint = (input: number, dispatch: number) =>
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        const end = performance.now();
        record.fromInput.push(end - input);
        record.fromDispatch.push(end - dispatch);
      };
      channel.port2.postMessage(null);
    });
  document.addEventListener(
    'pointerover',
    (event) => {
      const dispatch = performance.now();
      const polygon = (event.target as Element).closest?.('.field-polygon');
      if (!polygon) return;
      if (polygon.hasAttribute('data-hovered')) return afterPaint(event.timeStamp, dispatch);
      const observer = new MutationObserver(() => {
        if (!polygon.hasAttribute('data-hovered')) return;
        observer.disconnect();
        afterPaint(event.timeStamp, dispatch);
      });
      observer.observe(polygon, { attributes: true, attributeFilter: ['data-hovered'] });
    },
    true,
  );
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.name === 'pointerover') record.slowEvents++;
    }
  }).observe({ type: 'event', durationThreshold: 16, buffered: false } as PerformanceObserverInit);
}
