"""Awards service: Places, prize money, titles, team scores, best boards and qualification, published."""
