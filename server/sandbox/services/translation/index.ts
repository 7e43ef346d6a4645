import type { ServiceModule } from '../service.ts';
import { translationRouter } from './translation-routes.ts';

/** The translation service: a product's texts per language (its table: insurance's 009). */
export const translationService: ServiceModule = {
  name: 'translationservice',
  prefix: '/translationservice/v1',
  routers: [translationRouter],
  migrations: [],
  dependsOn: ['tenantservice', 'insuranceservice'],
};
