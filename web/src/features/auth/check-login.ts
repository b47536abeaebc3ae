import type { z } from 'zod';
import type { Checked } from '../../lib/use-api-form';
import type { codeLoginSchema, passwordLoginSchema } from './login-checks';

type Schemas = { code: typeof codeLoginSchema; password: typeof passwordLoginSchema };

/**
 * A login form's values checked by the contract's schema, loaded with the first submit. If its
 * chunk cannot be loaded (the network is gone) the values go to the server unchecked here: the
 * server checks them with the same schema and its field errors show under the fields.
 */
export async function checkLogin<K extends keyof Schemas>(
  form: K,
  values: z.input<Schemas[K]>,
): Promise<Checked<z.output<Schemas[K]>>> {
  let schemas: Schemas;
  try {
    const m = await import('./login-checks');
    schemas = { code: m.codeLoginSchema, password: m.passwordLoginSchema };
  } catch {
    return { success: true, data: values as z.output<Schemas[K]> };
  }
  return schemas[form].safeParse(values) as Checked<z.output<Schemas[K]>>;
}
