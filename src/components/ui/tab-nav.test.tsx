// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { TabNav } from './tab-nav';

const TABS = [
  { to: '/account', label: 'Profile', end: true },
  { to: '/account/password', label: 'Password' },
  { to: '/account/api-keys', label: 'API keys' },
  { to: '/account/ssh-keys', label: 'SSH keys' },
];

// jsdom lays nothing out: the row's widths, its scroll position and the boxes are stubbed.
const stubbed: [object, string][] = [];
function stub(target: object, name: string, descriptor: PropertyDescriptor) {
  Object.defineProperty(target, name, { configurable: true, ...descriptor });
  stubbed.push([target, name]);
}

afterEach(() => {
  cleanup();
  for (const [target, name] of stubbed.splice(0)) delete (target as Record<string, unknown>)[name];
});

/** A row `width` px wide holding `content` px of tabs; the tab at `current` sits at that x before scrolling. */
function layout(width: number, content: number, current?: { left: number; right: number }) {
  const scroll = new WeakMap<Element, number>();
  const isNav = (el: Element) => el.tagName === 'NAV';
  stub(HTMLElement.prototype, 'clientWidth', {
    get: function (this: Element) {
      return isNav(this) ? width : 0;
    },
  });
  stub(HTMLElement.prototype, 'scrollWidth', {
    get: function (this: Element) {
      return isNav(this) ? content : 0;
    },
  });
  stub(HTMLElement.prototype, 'scrollLeft', {
    get: function (this: Element) {
      return scroll.get(this) ?? 0;
    },
    set: function (this: Element, x: number) {
      scroll.set(this, Math.max(0, Math.min(x, content - width)));
    },
  });
  stub(HTMLElement.prototype, 'getBoundingClientRect', {
    value: function (this: Element) {
      const box = isNav(this) ? { left: 0, right: width } : this.getAttribute('aria-current') === 'page' && current ? current : { left: 0, right: 0 };
      return { ...box, top: 0, bottom: 44, x: box.left, y: 0, width: box.right - box.left, height: 44, toJSON: () => box };
    },
  });
}

function renderAt(path: string) {
  render(
    <MemoryRouter initialEntries={[path]}>
      <TabNav items={TABS} label="Account sections" />
    </MemoryRouter>,
  );
  return screen.getByRole('navigation', { name: 'Account sections' });
}

describe('TabNav', () => {
  it('has no fade when every tab fits', () => {
    layout(800, 800);
    expect(renderAt('/account')).not.toHaveAttribute('data-overflow');
  });

  it('fades the end that has more tabs, and follows the scroll', () => {
    layout(300, 600);
    const nav = renderAt('/account');
    expect(nav).toHaveAttribute('data-overflow', 'end');
    expect(nav.className).toContain('data-[overflow=end]:[mask-image:');
    nav.scrollLeft = 100;
    fireEvent.scroll(nav);
    expect(nav).toHaveAttribute('data-overflow', 'both');
    nav.scrollLeft = 300;
    fireEvent.scroll(nav);
    expect(nav).toHaveAttribute('data-overflow', 'start');
  });

  it('scrolls the current tab into view, clear of the fade, when the page opens', () => {
    layout(300, 600, { left: 400, right: 480 });
    const nav = renderAt('/account/ssh-keys');
    expect(screen.getByRole('link', { name: 'SSH keys' })).toHaveAttribute('aria-current', 'page');
    expect(nav.scrollLeft).toBe(480 - 300 + 32);
  });

  it('leaves the row where it is when the current tab is in view', () => {
    layout(300, 600, { left: 40, right: 120 });
    expect(renderAt('/account/password').scrollLeft).toBe(0);
  });
});
