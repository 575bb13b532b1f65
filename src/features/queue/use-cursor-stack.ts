// Shared with the Uploads list (src/lib/use-cursor-stack.ts).
export { useCursorStack } from '../../lib/use-cursor-stack';
