import { cn } from "./cn";

const control =
  "block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm shadow-sm placeholder:text-slate-400 focus:border-indigo-500 focus:outline-none focus:ring-1 focus:ring-indigo-500 disabled:bg-slate-100 aria-[invalid=true]:border-red-500";

export const Input = ({ className, ...props }: React.InputHTMLAttributes<HTMLInputElement>) => (
  <input className={cn(control, className)} {...props} />
);

export const Textarea = ({ className, ...props }: React.TextareaHTMLAttributes<HTMLTextAreaElement>) => (
  <textarea className={cn(control, "min-h-20 font-[inherit]", className)} {...props} />
);

export const Select = ({ className, ...props }: React.SelectHTMLAttributes<HTMLSelectElement>) => (
  <select className={cn(control, "pr-8", className)} {...props} />
);

/**
 * The `<option>`s of a select over a closed set of values: an optional blank first choice
 * (`none`: "All suites", "Choose…") then one per value, shown by `labels` (a table such as
 * `RUN_STATUS_LABELS`, or a function for computed text).
 */
export function Options<T extends string | number>({
  values,
  labels,
  none,
}: {
  values: readonly T[];
  labels?: Record<T, React.ReactNode> | ((value: T) => React.ReactNode);
  none?: string;
}) {
  const label = (v: T) => (labels === undefined ? v : typeof labels === "function" ? labels(v) : labels[v]);
  return (
    <>
      {none !== undefined && <option value="">{none}</option>}
      {values.map((v) => (
        <option key={v} value={v}>
          {label(v)}
        </option>
      ))}
    </>
  );
}

/** The `<option>`s of a select over named records (agents, suites, model configurations…): valued by id, shown by name. */
export function NamedOptions({ items, none }: { items: readonly { id: string; name: string }[]; none?: string }) {
  return (
    <>
      {none !== undefined && <option value="">{none}</option>}
      {items.map((item) => (
        <option key={item.id} value={item.id}>
          {item.name}
        </option>
      ))}
    </>
  );
}

/** A labelled form field with hint and error text wired up for screen readers. */
export function Field({
  id,
  label,
  hint,
  error,
  required,
  children,
  className,
}: {
  id: string;
  label: React.ReactNode;
  hint?: React.ReactNode;
  error?: string;
  required?: boolean;
  children: React.ReactNode;
  className?: string;
}) {
  return (
    <div className={cn("space-y-1", className)}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
        {required && (
          <span className="text-red-600" aria-hidden="true">
            {" "}
            *
          </span>
        )}
      </label>
      {children}
      {hint && !error && (
        <p id={`${id}-hint`} className="text-xs text-slate-500">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="text-xs text-red-600" data-testid={`error-${id}`}>
          {error}
        </p>
      )}
    </div>
  );
}

export function FormError({ message }: { message?: string | null }) {
  if (!message) return null;
  return (
    <div role="status" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-700">
      {message}
    </div>
  );
}

/** What a labelled control says about itself: its id, label, hint and inline error. */
type LabelledProps = {
  id: string;
  label: React.ReactNode;
  hint?: React.ReactNode;
  /** The field's message (react-hook-form's `errors.x?.message` or a server issue); marks the control invalid. */
  error?: string;
  required?: boolean;
  /** Classes of the field wrapper; `className` goes to the control. */
  fieldClassName?: string;
};

/**
 * A control wrapped in its Field: the label, hint and error go to the Field; everything else (type,
 * placeholder, the value binding `{...form.register(...)}` or `value`/`onChange`) passes straight
 * to the control, which the error marks invalid.
 */
function labelled<P extends object>(Control: (props: P) => React.ReactNode) {
  return function LabelledControl({ id, label, hint, error, required, fieldClassName, ...control }: Omit<P, "id"> & LabelledProps) {
    // The rest is P without its id, which TypeScript cannot see through the generic Omit.
    const props = { id, "aria-invalid": Boolean(error), ...control } as unknown as P;
    return (
      <Field id={id} label={label} hint={hint} error={error} required={required} className={fieldClassName}>
        <Control {...props} />
      </Field>
    );
  };
}

export type InputFieldProps = Omit<React.ComponentProps<"input">, "id"> & LabelledProps;

/** A labelled input with its hint and inline error. */
export const InputField: (props: InputFieldProps) => React.ReactNode = labelled(Input);

/** InputField's twin for a multi-line value. */
export const TextareaField: (props: Omit<React.ComponentProps<"textarea">, "id"> & LabelledProps) => React.ReactNode = labelled(Textarea);

/** InputField's twin for a choice: the `<option>`s are its children. */
export const SelectField: (props: Omit<React.ComponentProps<"select">, "id"> & LabelledProps) => React.ReactNode = labelled(Select);
