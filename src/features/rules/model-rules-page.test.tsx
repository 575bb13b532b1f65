/**
 * The Rules page of one model: an admin edits routing, business rules and the reasons the review
 * offers, with a message beside each input as it is typed (the regular expression checked as typed),
 * saves on the version read, and a save refused because another admin saved first shows the server's problem and offers theirs.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_REASONS } from '@extraction-review/contract/review/model-settings';
import { reviewKeys } from '../../api/keys';
import { ModelRulesPage } from './model-rules-page';

const SETTINGS = {
  apiVersion: 'v1',
  model: 'acme/invoices/v4',
  version: 2,
  routing: {
    autoConfirm: false,
    minConfidence: 'High',
    requiredFields: [],
    onRuleFailure: true,
    samplePercent: 0,
  },
  rules: [],
  feedbackEnabled: false,
  updatedAt: '2026-01-05T09:00:00.000Z',
  updatedBy: { id: 'op-ada', name: 'Ada' },
};

const FIELDS = {
  fields: [
    { path: 'invoice_number', title: 'Invoice number' },
    { path: 'line_items', title: 'Line items' },
    { path: 'line_items[*].total_price', title: 'Line items › Total price' },
  ],
  documentsRead: 3,
};

/** The purge log: one purge of this model, one of another model that failed in part, the last check. */
const PURGE_LOG = {
  runs: [
    {
      id: 'r3',
      startedAt: '2026-03-01T10:00:00.000Z',
      finishedAt: '2026-03-01T10:00:01.000Z',
      copy: 'app-1 (pid 42)',
      trigger: 'sweep',
      filesRemoved: 0,
      documentsDeleted: 0,
      models: [],
      errors: [],
    },
    {
      id: 'r2',
      startedAt: '2026-02-01T10:00:00.000Z',
      finishedAt: '2026-02-01T10:00:02.000Z',
      copy: 'app-2 (pid 7)',
      trigger: 'sweep',
      filesRemoved: 1,
      documentsDeleted: 0,
      models: [{ apiVersion: 'v2', model: 'other', filesRemoved: 1, documentsDeleted: 0 }],
      errors: ['A kept file could not be removed (left for the orphan-file sweep): EACCES'],
    },
    {
      id: 'r1',
      startedAt: '2026-01-20T10:00:00.000Z',
      finishedAt: '2026-01-20T10:00:03.000Z',
      copy: 'npm run documents -- purge on app-1',
      trigger: 'command',
      filesRemoved: 5,
      documentsDeleted: 3,
      models: [
        { apiVersion: 'v1', model: 'acme/invoices/v4', filesRemoved: 4, documentsDeleted: 2 },
        { apiVersion: 'v2', model: 'other', filesRemoved: 1, documentsDeleted: 1 },
      ],
      errors: [],
    },
  ],
};

let puts: { url: string; body: unknown }[] = [];
let served: typeof SETTINGS;
let answerPut: (body: Record<string, unknown>) => Response;

beforeEach(() => {
  puts = [];
  served = SETTINGS;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const request = input instanceof Request ? input : new Request(String(input), init);
      if (request.method === 'PUT') {
        const body = (await request.json()) as Record<string, unknown>;
        puts.push({ url: request.url, body });
        return answerPut(body);
      }
      if (request.url.endsWith('/fields')) return Response.json(FIELDS);
      if (request.url.endsWith('/purge-runs')) return Response.json(PURGE_LOG);
      // The model's unchecked-values gate (its own switch on the page): asked, never strict here.
      if (request.url.includes('/unchecked-gate'))
        return Response.json({
          apiVersion: 'v1',
          model: 'acme/invoices/v4',
          strict: false,
          updatedAt: null,
          updatedBy: null,
        });
      return Response.json(served);
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

function renderPage(role: 'admin' | 'operator' = 'admin') {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
  client.setQueryData(reviewKeys.session(), {
    operator: { id: 'op-ada', name: 'Ada', role, hasPassword: true, createdAt: '2026-01-01T00:00:00.000Z' },
    csrfToken: 'csrf',
  });
  render(
    <QueryClientProvider client={client}>
      <ModelRulesPage apiVersion="v1" model="acme/invoices/v4" />
    </QueryClientProvider>,
  );
}

// Role queries over the form take seconds in jsdom on a loaded machine: a guard against hangs only.
describe('ModelRulesPage', { timeout: 30_000 }, () => {
  it('checks a rule as it is typed, then saves the settings on the version read', async () => {
    answerPut = (body) => Response.json({ ...SETTINGS, ...body, version: 3 });
    renderPage();
    await userEvent.click(await screen.findByLabelText(/Confirm documents automatically/));
    await userEvent.selectOptions(screen.getByLabelText('Kind of rule to add'), 'pattern');
    await userEvent.click(screen.getByRole('button', { name: 'Add a rule' }));
    const rule = screen.getByRole('group', { name: /Rule 1: Format/ });
    expect(within(rule).getByText('Name a field')).toBeInTheDocument();
    await userEvent.type(within(rule).getByLabelText('Field'), 'invoice_number');
    const pattern = within(rule).getByLabelText('Regular expression');
    await userEvent.type(pattern, '^(INV');
    expect(pattern).toHaveAccessibleDescription(/Not a regular expression/);
    await userEvent.type(pattern, ')-');
    expect(pattern).not.toHaveAttribute('aria-invalid');

    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Saved (version 3).');
    expect(puts).toEqual([
      {
        url: expect.stringMatching(/\/api\/review\/models\/v1\/acme%2Finvoices%2Fv4\/settings$/),
        body: {
          version: 2,
          routing: {
            autoConfirm: true,
            minConfidence: 'High',
            requiredFields: [],
            onRuleFailure: true,
            samplePercent: 0,
          },
          rules: [{ id: 'pattern-1', kind: 'pattern', field: 'invoice_number', pattern: '^(INV)-' }],
          feedbackEnabled: false,
          // Never saved: the defaults, as served (a server without reasons reads as the defaults too).
          reasons: DEFAULT_REASONS,
          retention: { filesAfterDays: null, documentsAfterDays: null },
        },
      },
    ]);
  });

  it('does not send settings with a problem, and says so', async () => {
    renderPage();
    const sample = await screen.findByLabelText('Random sample (%)');
    await userEvent.clear(sample);
    await userEvent.type(sample, '150');
    expect(screen.getByText('From 0 to 100')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByRole('alert')).toHaveTextContent('One input needs fixing before saving');
    expect(sample).toHaveFocus();
    expect(puts).toEqual([]);
  });

  it('shows the server’s problem when another admin saved first, and loads theirs', async () => {
    answerPut = () => {
      served = { ...SETTINGS, version: 3, updatedBy: { id: 'op-bob', name: 'Bob' } };
      return new Response(
        JSON.stringify({
          status: 409,
          title: 'Changed since you read it',
          detail: 'These settings changed since you read them: they are now version 3, saved by Bob.',
          code: '409-001',
          errors: [],
        }),
        { status: 409, headers: { 'content-type': 'application/problem+json' } },
      );
    };
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Save' }));
    expect(await screen.findByText(/now version 3, saved by Bob/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Load the saved settings' }));
    await waitFor(() => expect(screen.queryByText(/now version 3, saved by Bob/)).toBeNull());
    expect(screen.getByText(/^Version 3, saved by Bob/)).toBeInTheDocument();
  });

  it('offers the model’s fields as a field is typed, and shows an unknown one refused (422-015) beside it', async () => {
    answerPut = () =>
      new Response(
        JSON.stringify({
          status: 422,
          title: 'Unknown field path',
          detail:
            'A field named here does not exist in this model’s documents: choose among the fields offered.',
          code: '422-015',
          errors: [
            { pointer: '#/rules/0/field', detail: 'No field "invoice_numbr" in this model’s documents.' },
          ],
        }),
        { status: 422, headers: { 'content-type': 'application/problem+json' } },
      );
    renderPage();
    expect(await screen.findByText(/offer the 3 fields seen in this model’s documents/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Add a rule' }));
    const rule = screen.getByRole('group', { name: /Rule 1/ });
    const field = within(rule).getByLabelText('Field');
    const list = document.getElementById(field.getAttribute('list') ?? '');
    expect([...(list?.querySelectorAll('option') ?? [])].map((o) => o.value)).toEqual([
      'invoice_number',
      'line_items',
      'line_items[*].total_price',
    ]);
    await userEvent.type(field, 'invoice_numbr');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(field).toHaveAccessibleDescription(/No field "invoice_numbr"/));
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByRole('alert')).toHaveTextContent('Unknown field path');
    // Changed: the server's word is dropped until the next save.
    await userEvent.type(field, '{Backspace}');
    expect(field).not.toHaveAttribute('aria-invalid');
  });

  it('edits the reasons the review offers: adds, moves, removes, refuses one twice, and saves them in order', async () => {
    answerPut = (body) => Response.json({ ...SETTINGS, ...body, version: 3 });
    renderPage();
    const reject = await screen.findByRole('region', { name: 'Reject' });
    expect(
      within(reject)
        .getAllByRole('textbox')
        .map((input) => (input as HTMLInputElement).value),
    ).toEqual(DEFAULT_REASONS.reject);
    await userEvent.click(within(reject).getByRole('button', { name: 'Add a reason to reject' }));
    const added = within(reject).getByRole('textbox', { name: 'Reject reason 4' });
    expect(added).toHaveFocus();
    await userEvent.type(added, 'unreadable');
    expect(added).toHaveAccessibleDescription(/same reason is offered above/);
    await userEvent.clear(added);
    await userEvent.type(added, 'Missing pages');
    expect(added).not.toHaveAttribute('aria-invalid');
    // Up to first place, the focus staying on the button pressed (or its twin at the top).
    for (const position of [4, 3, 2])
      await userEvent.click(
        within(reject).getByRole('button', { name: `Move up: Reject reason ${String(position)}` }),
      );
    expect(within(reject).getByRole('button', { name: 'Move down: Reject reason 1' })).toHaveFocus();
    await userEvent.click(within(reject).getByRole('button', { name: 'Remove: Reject reason 4' }));

    const override = screen.getByRole('region', { name: 'Confirm although a rule fails' });
    await userEvent.click(
      within(override).getByRole('button', { name: 'Remove: Confirm although a rule fails reason 1' }),
    );
    expect(within(override).getByText(/None: the operator writes the reason/)).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Saved (version 3).');
    expect(puts[0]?.body).toMatchObject({
      reasons: {
        reject: ['Missing pages', 'Not an invoice / wrong document type', 'Unreadable'],
        postpone: DEFAULT_REASONS.postpone,
        override: [],
      },
    });
  });

  it('shows the server’s word on a reason beside it (422-008 pointing at it)', async () => {
    answerPut = () =>
      new Response(
        JSON.stringify({
          status: 422,
          title: 'Invalid request',
          detail: 'The request does not fit.',
          code: '422-008',
          errors: [{ pointer: '#/reasons/postpone/1', detail: 'At most 200 characters' }],
        }),
        { status: 422, headers: { 'content-type': 'application/problem+json' } },
      );
    renderPage();
    await userEvent.click(await screen.findByRole('button', { name: 'Save' }));
    const second = screen.getByRole('textbox', { name: 'Postpone reason 2' });
    await waitFor(() => expect(second).toHaveAccessibleDescription(/At most 200 characters/));
    expect(second).toHaveAttribute('aria-invalid', 'true');
  });

  it('shows operators that only admins change the rules', async () => {
    renderPage('operator');
    expect(await screen.findByText(/Only admins change the rules/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
  });

  it('shows admins what the retention purge removed of this model, and what failed', async () => {
    renderPage();
    const section = await screen.findByRole('region', { name: 'Retention purges' });
    expect(
      await within(section).findByText(/Last purge: .*\(Background purge, app-1 \(pid 42\)\)/),
    ).toBeVisible();
    const rows = within(section).getAllByRole('row').slice(1);
    expect(
      rows.map((row) =>
        within(row)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      ),
    ).toEqual([
      [expect.any(String), 'Background purge, app-2 (pid 7)', '0', '0', expect.stringMatching(/EACCES/)],
      [expect.any(String), 'npm run documents -- purge on app-1', '4', '2', 'None'],
    ]);
  });

  it('shows operators no purge log', async () => {
    renderPage('operator');
    expect(await screen.findByText(/Only admins change the rules/)).toBeVisible();
    expect(screen.queryByRole('region', { name: 'Retention purges' })).not.toBeInTheDocument();
  });
});
