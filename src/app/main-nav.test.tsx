import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { MainNav } from './main-nav';
import { ada, bob, renderTeam, sessionOf } from './session/testing';

vi.mock('../api/review/endpoints');

const nav = () => screen.getByRole('navigation', { name: 'Main' });
const linkNames = () =>
  within(nav())
    .queryAllByRole('link')
    .map((link) => link.textContent);

describe('MainNav', () => {
  beforeEach(() => vi.resetAllMocks());

  it('shows a signed-out visitor only what needs no session', () => {
    renderTeam(<MainNav />, { session: null, path: '/sign-in' });
    expect(linkNames()).toEqual(['Extraction review', 'Open saved']);
    expect(within(nav()).queryByRole('button', { name: /Admin/ })).toBeNull();
  });

  it('shows an operator the team pages, and no admin menu', () => {
    renderTeam(<MainNav />, { session: sessionOf(bob), path: '/queue' });
    expect(linkNames()).toEqual([
      'Extraction review',
      'New extraction',
      'Uploads',
      'Open saved',
      'Team queue',
    ]);
    expect(within(nav()).getByRole('link', { name: 'Team queue' })).toHaveAttribute('aria-current', 'page');
    expect(within(nav()).queryByRole('button', { name: /Admin/ })).toBeNull();
  });

  it('groups the admin pages under one menu button, used with the keyboard', async () => {
    const { user } = renderTeam(<MainNav />, { session: sessionOf(ada), path: '/queue' });
    const button = within(nav()).getByRole('button', { name: /Admin/ });
    expect(button).toHaveAttribute('aria-haspopup', 'menu');
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('menu')).toBeNull();

    button.focus();
    await user.keyboard('{ArrowDown}');
    const menu = screen.getByRole('menu', { name: 'Admin' });
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(button).toHaveAttribute('aria-controls', menu.id);
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['Operators', 'Rules', 'Deliveries', 'Exports', 'Where time goes']);
    expect(within(menu).getByRole('menuitem', { name: 'Operators' })).toHaveFocus();
    await user.keyboard('{ArrowUp}');
    expect(within(menu).getByRole('menuitem', { name: 'Where time goes' })).toHaveFocus();
    await user.keyboard('{Home}{ArrowDown}');
    expect(within(menu).getByRole('menuitem', { name: 'Rules' })).toHaveFocus();

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(button).toHaveFocus();

    // Chosen with Enter: the page opens and the menu closes.
    await user.keyboard('{Enter}');
    await user.keyboard('{ArrowDown}{Enter}');
    expect(window.location.pathname).toBe('/rules');
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('closes the menu on a click outside it', async () => {
    const { user } = renderTeam(
      <>
        <MainNav />
        <p>elsewhere</p>
      </>,
      { session: sessionOf(ada), path: '/queue' },
    );
    await user.click(within(nav()).getByRole('button', { name: /Admin/ }));
    expect(screen.getByRole('menu')).toBeInTheDocument();
    await user.click(screen.getByText('elsewhere'));
    expect(screen.queryByRole('menu')).toBeNull();
  });
});
