import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldErrors, FormField } from './custom-schema.ts';
import {
  CheckboxInput,
  DateInput,
  DateTimeInput,
  ListInput,
  NumberInput,
  SelectInput,
  TextareaInput,
  TextInput,
} from './fields.tsx';

export type FormValues = Record<string, unknown>;

/**
 * A saved number as the language writes it (1234,5 in German and Polish): the schema reads a
 * decimal comma as well as a point, so what is shown can be saved again unchanged.
 */
export function numberText(value: number, language: string): string {
  const decimal =
    new Intl.NumberFormat(language).formatToParts(1.5).find((p) => p.type === 'decimal')?.value ??
    '.';
  return String(value).replace('.', decimal);
}

/** Renders the fields of `buildCustomSchema` with the matching inputs. */
export function CustomFormFields({
  fields,
  values,
  errors,
  onChange,
  disabled,
}: {
  fields: readonly FormField[];
  values: FormValues;
  errors: FieldErrors;
  onChange: (name: string, value: unknown) => void;
  disabled?: boolean;
}) {
  const { i18n } = useTranslation();
  return (
    <>
      {fields.map((field) => {
        const common = {
          name: field.name,
          label: field.label,
          required: field.required,
          errors: errors[field.name],
          ...(field.hint === undefined ? {} : { hint: field.hint }),
          ...(disabled === undefined ? {} : { disabled }),
        };
        const text = typeof values[field.name] === 'string' ? (values[field.name] as string) : '';
        const set = (value: unknown) => onChange(field.name, value);
        return <Fragment key={field.name}>{control()}</Fragment>;
        function control() {
          switch (field.control) {
            case 'text':
            case 'email':
            case 'tel':
            case 'url':
              return (
                <TextInput
                  {...common}
                  type={field.control}
                  value={text}
                  maxLength={field.maxLength}
                  onChange={set}
                />
              );
            case 'textarea':
              return (
                <TextareaInput
                  {...common}
                  value={text}
                  maxLength={field.maxLength}
                  onChange={set}
                />
              );
            case 'number':
              return (
                <NumberInput
                  {...common}
                  value={
                    typeof values[field.name] === 'number'
                      ? numberText(values[field.name] as number, i18n.language)
                      : text
                  }
                  minimum={field.minimum}
                  maximum={field.maximum}
                  onChange={set}
                />
              );
            case 'select':
              return (
                <SelectInput
                  {...common}
                  value={text}
                  options={field.options ?? []}
                  onChange={set}
                />
              );
            case 'checkbox':
              return (
                <CheckboxInput {...common} checked={values[field.name] === true} onChange={set} />
              );
            case 'date':
              return <DateInput {...common} value={text} onChange={set} />;
            case 'dateTime':
              return <DateTimeInput {...common} value={text} onChange={set} />;
            case 'list':
              return (
                <ListInput
                  {...common}
                  value={
                    Array.isArray(values[field.name])
                      ? (values[field.name] as unknown[]).map(String)
                      : []
                  }
                  options={field.options}
                  onChange={set}
                />
              );
            case 'none':
              return null;
          }
        }
      })}
    </>
  );
}
