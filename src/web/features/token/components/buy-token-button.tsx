import { useNavigate } from 'react-router';
import { Button, type ButtonSize, type ButtonVariant } from '#web/components/ui/button';
import { paths } from '#web/config/paths';

/**
 * The storefront's Buy Token button. Until the Buy Token modal lands (its own issue), it takes the
 * shopper to How to Buy, which explains the three steps and shows the contract address.
 */
export function BuyTokenButton({
  variant = 'primary',
  size = 'md',
  className,
}: {
  variant?: ButtonVariant;
  size?: ButtonSize;
  className?: string;
}) {
  const navigate = useNavigate();
  return (
    <Button
      variant={variant}
      size={size}
      className={className}
      onClick={() => void navigate(paths.howToBuy.getHref())}
    >
      Buy Token
    </Button>
  );
}
