import {
  Menu,
  MenuButton,
  MenuHeading,
  MenuItem,
  MenuItems,
  MenuSection,
  MenuSeparator,
} from '@headlessui/react';
import { useLayoutEffect, useRef, type ReactNode } from 'react';

// Headless UI's menu, only ever imported lazily (`./lazy-menu.tsx`), so that the shell's first
// load does not carry the menu, floating-ui and focus code until a menu is first used.

export const menuParts = { MenuItems, MenuItem, MenuSeparator, MenuSection, MenuHeading };
export type MenuParts = typeof menuParts;

export interface MenuTrigger {
  className: string;
  'aria-label'?: string;
  children: ReactNode;
}

export function LoadedMenu({
  trigger,
  items,
}: {
  trigger: MenuTrigger;
  items: (parts: MenuParts) => ReactNode;
}) {
  const button = useRef<HTMLButtonElement>(null);
  useLayoutEffect(() => {
    const el = button.current;
    // It mounts only when the user asked for the menu on the plain button: open it at once.
    if (!el) return;
    el.focus();
    // Headless UI opens on its button's own keydown (Enter, Space, ArrowDown), moving focus to the
    // first item; sending it that key opens the menu the same way the user's key would have.
    el.dispatchEvent(
      new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }),
    );
  }, []);
  return (
    <Menu>
      <MenuButton ref={button} className={trigger.className} aria-label={trigger['aria-label']}>
        {trigger.children}
      </MenuButton>
      {items(menuParts)}
    </Menu>
  );
}
