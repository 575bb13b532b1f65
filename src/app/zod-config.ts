import { z } from 'zod';

// The app's Content-Security-Policy forbids eval; without this, zod probes for it with
// `new Function` (caught, but reported as a CSP violation) to compile faster object parsers.
z.config({ jitless: true });
