// The queue's state badge is shared with the Uploads list (src/components/state-badge.tsx).
export { STATE_LABEL, STATE_ORDER, StateBadge } from '../../components/state-badge';
