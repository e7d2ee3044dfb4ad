"""A small, realistic Python project indexed into a real SQLite store, shared by retrieval tests."""

from __future__ import annotations

from pathlib import Path

from conftest import git

FILES = {
    "shop/__init__.py": '"""A tiny shop."""\n',
    "shop/models.py": '''"""Domain models."""


class Product:
    """Something we sell."""

    def __init__(self, name: str, price: float):
        self.name = name
        self.price = price


class DigitalProduct(Product):
    """A product delivered by download."""

    def download_url(self) -> str:
        return f"https://cdn.example/{self.name}"
''',
    "shop/pricing.py": '''"""Prices, discounts and taxes."""

from shop.models import Product

VAT = 0.21


def apply_discount(product: Product, percent: float) -> float:
    """Price after a percentage discount."""
    return round(product.price * (1 - percent / 100), 2)


def price_with_tax(product: Product) -> float:
    return round(apply_discount(product, 0) * (1 + VAT), 2)
''',
    "shop/checkout.py": '''"""Checkout: totals and payment with retries."""

import time

from shop.pricing import apply_discount, price_with_tax


class PaymentDeclined(Exception):
    """The payment provider said no."""


def cart_total(products, coupon_percent=0.0):
    return sum(apply_discount(p, coupon_percent) for p in products)


def charge_with_backoff(gateway, amount, attempts=4):
    """Charge a card, sleeping exponentially longer after each transient failure."""
    for attempt in range(attempts):
        try:
            return gateway.charge(amount)
        except TimeoutError:
            time.sleep(2 ** attempt)
    raise PaymentDeclined("ECONNREFUSED after retries")


def receipt(products):
    return [price_with_tax(p) for p in products]
''',
    "vendor/legacy/pricing_copy.py": """def apply_discount(product, percent):
    return product.price * (1 - percent / 100)
""",
    "docs/architecture.md": "# Architecture\n\n## Checkout\n\nCheckout charges cards with exponential backoff.\n",
}


def make_project(root: Path, files: dict[str, str] = FILES) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    git(root, "init", "-q", "-b", "main")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "feat(shop): initial shop")
    return root


def index_project(root: Path, store: Path) -> None:
    from maguyva.index.pipeline import index_repository

    index_repository(root, store, full=True, workers=1)


def open_indexed(root: Path, files: dict[str, str]):
    """``files`` committed in a new repository at ``root``, indexed in place, opened without embeddings."""
    from maguyva.api import Maguyva
    from maguyva.index.pipeline import index_repository

    make_project(root, files)
    index_repository(root, root / ".git" / "maguyva" / "index.db")
    opened = Maguyva.open(root)
    opened.embedding_settings = None
    return opened
