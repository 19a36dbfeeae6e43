"""A tiny stock ledger: items, quantities and reorder alerts."""

from dataclasses import dataclass, field


@dataclass
class Item:
    sku: str
    name: str
    quantity: int = 0
    reorder_level: int = 5


@dataclass
class Inventory:
    items: dict[str, Item] = field(default_factory=dict)

    def add(self, item: Item) -> None:
        if item.sku in self.items:
            raise ValueError(f"duplicate SKU {item.sku}")
        self.items[item.sku] = item

    def receive(self, sku: str, amount: int) -> int:
        item = self.items[sku]
        item.quantity += amount
        return item.quantity

    def ship(self, sku: str, amount: int) -> int:
        item = self.items[sku]
        if amount > item.quantity:
            raise ValueError("not enough stock")
        item.quantity -= amount
        return item.quantity

    def low_stock(self) -> list[Item]:
        """Items at or below their reorder level."""
        return [i for i in self.items.values() if i.quantity <= i.reorder_level]

    def total_units(self) -> int:
        total = 0
        for item in self.items.values():
            total += item.quantity
        return total


def load_demo() -> Inventory:
    inv = Inventory()
    inv.add(Item("A-100", "bolts", 40))
    inv.add(Item("A-200", "nuts", 3))
    inv.add(Item("B-300", "washers", 12, reorder_level=10))
    return inv


if __name__ == "__main__":
    demo = load_demo()
    print("units:", demo.total_units())
    for low in demo.low_stock():
        print("reorder:", low.sku, low.name)
