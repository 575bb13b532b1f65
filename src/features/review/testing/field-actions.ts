import { vi } from 'vitest';
import type { FieldActions } from '../fields/field-actions';

/** Every value control's action as a mock, for tests that render values and read what they asked for. */
export function mockFieldActions(): FieldActions {
  return {
    onFieldHover: vi.fn(),
    onFieldSelect: vi.fn(),
    onFieldChange: vi.fn(),
    onRevert: vi.fn(),
    onConfirm: vi.fn(),
    onLeaveEditor: vi.fn(),
    onAddItem: vi.fn(),
    onDuplicateItem: vi.fn(),
    onRemoveItem: vi.fn(),
    onRestoreItem: vi.fn(),
  };
}
