import { describe, expect, it } from 'vitest';
import { checkHttpCall } from './http-call.ts';

// What a deployment refuses of an http.call (the integration test saves one through the API).
describe('http.call parameters', () => {
  it('takes a path of another sandbox service with a method, a JSON body and a variable', () => {
    expect(checkHttpCall({ path: '/claimservice/v1/claims/{entityCode}' })).toBeNull();
    expect(
      checkHttpCall({
        method: 'patch',
        path: '/claimservice/v1/claims/{entityCode}',
        body: '{"version":"{claimVersion}","title":"Checked {entityCode}"}',
        resultVariable: 'claimAnswer',
      }),
    ).toBeNull();
    expect(checkHttpCall({ path: '/insuranceservice/v1/leads?filter=status=new' })).toBeNull();
  });

  it('refuses anything that could leave the sandbox or climb out of a service', () => {
    for (const path of [
      'https://example.com/claimservice/v1/claims',
      'http://127.0.0.1:9/claimservice/v1/claims',
      '//example.com/claimservice/v1/claims',
      'claimservice/v1/claims',
      '/claimservice/v1/../../processmanager/v1/workflows',
      '/claimservice/v1/%2e%2e/x',
      '/claimservice/v1/a%2Fb',
      '/claimservice/v1/claims\\..\\x',
      '/claimservice/v1/ claims',
      'javascript:alert(1)',
    ]) {
      expect(checkHttpCall({ path }), path).toMatch(/^http\.call: /);
    }
  });

  it('refuses the process manager itself, the auth service and services it does not know', () => {
    expect(checkHttpCall({ path: '/processmanager/v1/workflows' })).toMatch(/service a workflow/);
    expect(checkHttpCall({ path: '/authservice/v1/token' })).toMatch(/service a workflow/);
    expect(checkHttpCall({ path: '/{service}/v1/x' })).toMatch(/service a workflow/);
    expect(checkHttpCall({ path: '/pbmservice/v1/benchmarks' })).toMatch(/service a workflow/);
  });

  it('refuses a bad method, a body that is not JSON or sent with GET, a bad variable name', () => {
    const path = '/claimservice/v1/claims/{entityCode}';
    expect(checkHttpCall({ path, method: 'DELETE' })).toMatch(/method/);
    expect(checkHttpCall({ path, method: 'POST', body: '{oops' })).toMatch(/JSON/);
    expect(checkHttpCall({ path, body: '{}' })).toMatch(/GET sends no body/);
    expect(checkHttpCall({ path, resultVariable: 'a-b' })).toMatch(/resultVariable/);
    expect(checkHttpCall({ path, resultVariable: '__proto__' })).toMatch(/resultVariable/);
    expect(checkHttpCall({})).toMatch(/path is missing/);
  });
});
