import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  fieldIssues,
  policyObjectsOf,
  type ApplicationObject,
  type ApplicationValues,
} from './application-values.ts';

/** An issue at a field: its code, and the bound the service named for a range issue. */
export interface ShownIssue {
  code: string;
  limit?: number;
}

/**
 * The state of a generated application form: the values, which fields show their verdict (a
 * field after the user left it, every field after a submit), and the service's issues of the
 * last submit, each until its field changes. Checking is the shared schema's, on every change.
 */
export function useApplicationForm(
  objects: readonly ApplicationObject[],
  initial: ApplicationValues,
) {
  const [values, setValues] = useState(initial);
  const [touched, setTouched] = useState<ReadonlySet<string>>(() => new Set());
  const [revealed, setRevealed] = useState(false);
  const [serverIssues, setServerIssues] = useState<Readonly<Record<string, ShownIssue>>>({});
  // Numbers are typed as the reader writes them (`20.000,50` in German).
  const language = useTranslation().i18n.language;
  const issues = useMemo(
    () => fieldIssues(objects, values, Date.now(), language),
    [objects, values, language],
  );
  const policyObjects = useMemo(
    () => policyObjectsOf(objects, values, language),
    [objects, values, language],
  );

  const setValue = useCallback((path: string, value: string | boolean) => {
    setValues((current) => ({ ...current, [path]: value }));
    setServerIssues((current) => {
      if (!(path in current)) return current;
      const { [path]: _dropped, ...rest } = current;
      return rest;
    });
  }, []);

  const touch = useCallback(
    (path: string) =>
      setTouched((current) => (current.has(path) ? current : new Set(current).add(path))),
    [],
  );

  /** The issue to show at a field now, if any: the service's (with its bound), else the form's. */
  const shownIssue = useCallback(
    (path: string): ShownIssue | undefined => {
      if (serverIssues[path]) return serverIssues[path];
      const code = revealed || touched.has(path) ? issues[path] : undefined;
      return code === undefined ? undefined : { code };
    },
    [serverIssues, revealed, touched, issues],
  );

  /** Shows every field's verdict (a submit); answers the paths with an issue, in form order. */
  const revealAll = useCallback((): string[] => {
    setRevealed(true);
    return Object.keys(issues);
  }, [issues]);

  /** The service's verdict of a submit, shown at the fields until they change. */
  const showServerIssues = useCallback(
    (list: readonly { path: string; code: string; limit?: number }[]) => {
      setRevealed(true);
      setServerIssues(
        Object.fromEntries(
          list.map(({ path, code, limit }) => [
            path,
            limit === undefined ? { code } : { code, limit },
          ]),
        ),
      );
    },
    [],
  );

  /** Starts over from other values (a draft opened again, the saved version of a conflict). */
  const reset = useCallback((next: ApplicationValues) => {
    setValues(next);
    setTouched(new Set());
    setRevealed(false);
    setServerIssues({});
  }, []);

  return {
    objects,
    values,
    policyObjects,
    /** How many fields the shared check finds wrong or missing now. */
    issueCount: Object.keys(issues).length,
    /** A submit has shown every field's verdict. */
    revealed,
    setValue,
    touch,
    shownIssue,
    revealAll,
    showServerIssues,
    reset,
  };
}

export type ApplicationFormState = ReturnType<typeof useApplicationForm>;

/**
 * Focuses a control by its name (a field's path, `household.livingArea`) once the form is enabled
 * again: a refused submit names the first field to fix, and a disabled input takes no focus.
 */
export function useFieldFocus(busy: boolean): (name: string) => void {
  const [name, setName] = useState<string | null>(null);
  useEffect(() => {
    if (!name || busy) return;
    document.getElementsByName(name)[0]?.focus();
    setName(null);
  }, [name, busy]);
  return setName;
}
