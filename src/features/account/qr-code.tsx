import { useEffect, useState } from 'react';
import { useT } from './messages';
import { Spinner } from '../../components/ui/spinner';

const MARGIN = 2;

/**
 * The otpauth:// URI as a QR code; the QR library loads only here, once setup has started. Drawn
 * from the module matrix as React elements, never as markup: the URI holds the account's e-mail,
 * which is API data (attacks T-XSS-1).
 */
export function QrCode({ value }: { value: string }) {
  const [matrix, setMatrix] = useState<{ size: number; path: string } | null | false>(null);
  useEffect(() => {
    let live = true;
    void import('qrcode')
      .then((qr) => {
        const { size, data } = qr.create(value).modules;
        let path = '';
        data.forEach((dark, i) => {
          if (dark) path += `M${(i % size) + MARGIN} ${Math.floor(i / size) + MARGIN}h1v1h-1z`;
        });
        if (live) setMatrix({ size: size + 2 * MARGIN, path });
      })
      .catch(() => live && setMatrix(false));
    return () => {
      live = false;
    };
  }, [value]);
  const t = useT();
  return (
    <div role="img" aria-label={t('account.twoFactor.qr')} className="grid size-48 shrink-0 place-items-center rounded-md bg-always-white">
      {matrix === null ? (
        <Spinner className="size-6 text-zinc-500" label="" />
      ) : matrix ? (
        <svg className="size-48" viewBox={`0 0 ${matrix.size} ${matrix.size}`} shapeRendering="crispEdges" aria-hidden="true">
          <path d={matrix.path} fill="#000" />
        </svg>
      ) : (
        <p className="p-3 text-center text-xs text-zinc-700">{t('account.twoFactor.qrFailed')}</p>
      )}
    </div>
  );
}
