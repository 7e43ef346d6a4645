/**
 * One problem of an uploaded file (a factor table, translations), as the insurance and
 * translation services list them in a 400 `invalid_file`: the line it is on, a code the client
 * translates with the named values, and an English message.
 */
export interface FileProblem {
  line: number;
  code: string;
  message: string;
  column?: string;
  value?: string;
  expected?: number;
  found?: number;
  otherLine?: number;
  count?: number;
}
