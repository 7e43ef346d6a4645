import { describe, expect, it } from 'vitest';
import { formulaIssues, type FormulaScope } from './check.ts';

const scope: FormulaScope = {
  names: new Map([
    ['vehicle.vehicleValue', 'number'],
    ['vehicle.vehicleType', 'string'],
    ['vehicle.isCommercial', 'boolean'],
    ['driver.birthDate', 'date'],
    ['policyStartDate', 'date'],
    ['basePremium', 'number'],
  ]),
  factors: new Map([['region', 1]]),
  ranges: new Set(['driverAge']),
};
const check = (source: string) => formulaIssues(source, scope);

describe('premium formula check at save', () => {
  it('passes the demo tariff formulas', () => {
    for (const source of [
      'vehicle.vehicleValue * 0.012',
      'yearsBetween(driver.birthDate, policyStartDate) < 25 ? basePremium * 0.3 : 0',
      'if(vehicle.isCommercial, 120, 0)',
      "basePremium * (factor('region', vehicle.vehicleType) * range('driverAge', yearsBetween(driver.birthDate, policyStartDate)) - 1)",
      'round(vehicle.vehicleValue / 12, 2)',
      '-basePremium * min(coalesce(vehicle.vehicleValue, 0), 20) * 0.02',
    ]) {
      expect(check(source), source).toEqual([]);
    }
  });

  it('refuses the three examples of the issue with their code and position', () => {
    expect(check('vehicle.vehicleValue / 0')).toEqual([
      { code: 'division_by_zero', position: 21, name: '/' },
    ]);
    expect(check('10 ^ 400')).toEqual([{ code: 'not_finite', position: 3, name: 'result' }]);
    expect(check('vehicle.vehicleType * 2')).toEqual([
      { code: 'type_error', position: 20, name: '*' },
    ]);
  });

  it('names what does not exist', () => {
    expect(check('1 + vehicle.colour')).toEqual([
      { code: 'unknown_name', position: 4, name: 'vehicle.colour' },
    ]);
    expect(check('eval(1)')).toEqual([{ code: 'unknown_function', position: 0, name: 'eval' }]);
    expect(check("factor('zone', 1)")).toEqual([
      { code: 'unknown_factor', position: 0, name: 'zone' },
    ]);
    expect(check("factor('region', 1, 2)")).toEqual([
      { code: 'factor_key_count', position: 0, name: 'region', expected: 1, found: 2 },
    ]);
    expect(check("range('age', 3)")).toEqual([{ code: 'unknown_range', position: 0, name: 'age' }]);
    expect(check('round(1)').length).toBe(0);
    expect(check('round()')).toEqual([{ code: 'wrong_arguments', position: 0, name: 'round' }]);
  });

  it('refuses wrong types and constant errors, keeps what may differ per policy', () => {
    expect(check('vehicle.isCommercial ? 1 : 0')).toEqual([]);
    expect(check('vehicle.vehicleValue ? 1 : 0')[0]?.code).toBe('type_error');
    expect(check('-vehicle.vehicleType')[0]?.code).toBe('type_error');
    expect(check('driver.birthDate * 2')[0]?.code).toBe('type_error');
    expect(check('sqrt(-4)')[0]?.code).toBe('not_finite');
    expect(check('5 % (2 - 2)')[0]).toMatchObject({ code: 'division_by_zero', position: 2 });
    expect(check('vehicle.vehicleValue / vehicle.vehicleValue')).toEqual([]);
    expect(check('vehicle.vehicleType')).toEqual([{ code: 'not_a_number', position: 0 }]);
    expect(check('price * * 2')).toEqual([{ code: 'unexpected_token', position: 8, name: '*' }]);
  });
});
