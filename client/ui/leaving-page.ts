import { createContext } from 'react';

/**
 * Whether the router is on its way from the page at `pathname` to another one: every page is a
 * lazy route, so a click on a link leaves only once the next page's code has loaded. Read from the
 * router itself (client/app/start.tsx), at the moment of asking: React shows the router's
 * navigation state in a transition, a moment later, which is too late for a list that is about to
 * write its filters into the address (use-url-filters.ts). Without a router: never.
 */
export const LeavingPageContext = createContext<(pathname: string) => boolean>(() => false);
