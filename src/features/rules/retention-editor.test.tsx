/** The Retention section of a model's rules: days typed, empty for ever, checked by the server's schema. */
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { checkDraft, draftFromSettings, errorsOf, type SettingsDraft } from './rules-form';
import { RetentionEditor } from './retention-editor';
import { DEFAULT_ROUTING, ModelSettings } from '@extraction-review/contract/review/model-settings';

const SETTINGS = ModelSettings.parse({
  apiVersion: 'v2',
  model: 'm',
  version: 2,
  routing: DEFAULT_ROUTING,
  rules: [],
  feedbackEnabled: false,
  updatedAt: null,
  updatedBy: null,
});

function Editor() {
  const [draft, setDraft] = useState<SettingsDraft>(draftFromSettings(SETTINGS));
  const checked = checkDraft(draft, 2);
  const errors = checked.ok ? new Map<string, string>() : checked.errors;
  return (
    <>
      <RetentionEditor
        draft={draft}
        errorOf={(key) => errors.get(key)}
        onChange={(patch) => setDraft((d) => ({ ...d, ...patch }))}
      />
      <output>{checked.ok ? JSON.stringify(checked.request.retention) : 'invalid'}</output>
    </>
  );
}

describe('the retention editor', () => {
  it('keeps for ever until set, sends the days, and refuses documents going before their files', async () => {
    render(<Editor />);
    expect(screen.getByRole('status')).toHaveTextContent('{"filesAfterDays":null,"documentsAfterDays":null}');
    const files = screen.getByLabelText('Remove the file after (days)');
    const documents = screen.getByLabelText('Delete the document after (days)');
    await userEvent.type(files, '30');
    await userEvent.type(documents, '10');
    expect(screen.getByRole('status')).toHaveTextContent('invalid');
    expect(documents).toHaveAccessibleDescription(/at least as many days as for the files/);
    await userEvent.clear(documents);
    await userEvent.type(documents, '3650');
    expect(screen.getByRole('status')).toHaveTextContent('{"filesAfterDays":30,"documentsAfterDays":3650}');
    await userEvent.clear(files);
    await userEvent.type(files, '0');
    expect(files).toHaveAccessibleDescription(/At least 1 day/);
  });

  it('keys the server’s pointers as the inputs', () => {
    expect([...errorsOf([{ path: ['retention', 'documentsAfterDays'], message: 'x' }]).keys()]).toEqual([
      'retention.documentsAfterDays',
    ]);
  });
});
