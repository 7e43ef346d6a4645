/**
 * The project's root folder (the one holding package.json), found by walking up from a module's
 * URL. The server runs from its sources (`server/...`, through tsx in development and tests) and
 * from its bundle (`dist/server/...`, in the container), at different depths; files it reads at
 * run time (the client build, locales, SQL migrations, the widget script) are therefore named
 * from the root, never by counting `../`.
 *
 * Pure on purpose (common/ imports no Node module): the caller says what a root looks like.
 */
export function projectRootOf(moduleUrl: string | URL, isRoot: (folder: URL) => boolean): URL {
  let folder = new URL('./', moduleUrl);
  for (;;) {
    if (isRoot(folder)) return folder;
    const parent = new URL('../', folder);
    if (parent.href === folder.href) throw new Error(`no project root above ${String(moduleUrl)}`);
    folder = parent;
  }
}
