import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Component, type ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { lazyPage } from './lazy-page';

function Hello({ name }: { name: string }) {
  return <p>Hello {name}</p>;
}

class Outer extends Component<{ children: ReactNode }, { error: unknown }> {
  override state: { error: unknown } = { error: null };
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  override render() {
    return this.state.error ? <p>outer caught it</p> : this.props.children;
  }
}

describe('lazyPage', () => {
  it('shows a spinner while the code loads, then the page', async () => {
    const { Page } = lazyPage(() => Promise.resolve(Hello), 'Loading hello…');
    render(<Page name="Ada" />);
    expect(screen.getByRole('status')).toHaveTextContent('Loading hello…');
    expect(await screen.findByText('Hello Ada')).toBeInTheDocument();
  });

  it('draws a preloaded page at once, without a spinner', async () => {
    const { Page, preload } = lazyPage(() => Promise.resolve(Hello), 'Loading hello…');
    await preload();
    render(<Page name="Ada" />);
    expect(screen.getByText('Hello Ada')).toBeInTheDocument();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('says when the code could not be loaded, and loads it again on "Try again"', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const load = vi
      .fn<() => Promise<typeof Hello>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'))
      .mockResolvedValue(Hello);
    const { Page } = lazyPage(load, 'Loading hello…');
    render(<Page name="Ada" />);
    expect(await screen.findByRole('alert')).toHaveTextContent('This page could not be loaded');
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Hello Ada')).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(2);
  });

  it("leaves a page's own rendering error to the boundaries above", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    function Broken(): ReactNode {
      throw new Error('a bug');
    }
    const { Page } = lazyPage(() => Promise.resolve(Broken), 'Loading…');
    render(
      <Outer>
        <Page />
      </Outer>,
    );
    expect(await screen.findByText('outer caught it')).toBeInTheDocument();
    expect(screen.queryByText('This page could not be loaded')).toBeNull();
  });
});
