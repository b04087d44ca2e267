import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { SearchInput } from '../../components/ui/search-input';
import { SelectField } from '../../components/ui/field';
import { adminServerQueries } from './api';
import { useT } from './messages';

/**
 * The owner: users found by e-mail (the API's `filter[email]`), picked from a list. The current
 * owner stays offered while the search finds others, so searching never changes the choice alone.
 */
export function OwnerField({
  register,
  current,
  error,
}: {
  register: UseFormRegisterReturn;
  current?: { id: number; label: string };
  error?: string;
}) {
  const t = useT();
  const [email, setEmail] = useState('');
  const users = useQuery(adminServerQueries.users(email));
  const found = (users.data?.data ?? []).map((u) => u.attributes).filter((u) => u.id !== current?.id);
  return (
    <div className="flex flex-col gap-2">
      <SearchInput
        label={t('adminServers.owner.find')}
        placeholder={t('adminServers.owner.findPlaceholder')}
        value={email}
        onValueChange={setEmail}
      />
      <SelectField label={t('adminServers.details.owner')} error={error} {...register}>
        {!current && <option value="">{t('adminServers.owner.choose')}</option>}
        {current && <option value={current.id}>{current.label}</option>}
        {found.map((u) => (
          <option key={u.id} value={u.id}>
            {`${u.email} (${u.username})`}
          </option>
        ))}
      </SelectField>
    </div>
  );
}
